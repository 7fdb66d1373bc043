/**
 * The raw-Markdown export of every page (`/guides/install.md`, `/index.md` for the root), the
 * same text the LLM exports concatenate: agents-only content included, humans-only stripped.
 */
import type { CompiledPage } from '../types.ts';
import { markdownKey } from './site-paths.ts';

/** One file per page: key → the page's Markdown, ending with one newline. */
export function markdownExports(pages: readonly Pick<CompiledPage, 'urlPath' | 'markdown'>[]): Map<string, string> {
  return new Map(pages.map((page) => [markdownKey(page.urlPath), page.markdown.trimEnd() + '\n']));
}

/**
 * The raw-Markdown export of every page (`/guides/install.md`, `/index.md` for the root), the
 * same text the LLM exports concatenate: agents-only content included, humans-only stripped.
 */
import type { CompiledPage } from '../types.ts';

/** A page's Markdown export: its Markdown, ending with one newline (published at `markdownKey`). */
export function markdownExport(page: Pick<CompiledPage, 'markdown'>): string {
  return page.markdown.trimEnd() + '\n';
}

/**
 * Pages of the workspace with their URL, title and heading ids, and the links between them,
 * all read by the builder's own code (`sourceFacts`: its parser settings, outline pass and link
 * collection; `urlPathFor`, `resolveLink`), so an anchor offered by autocomplete is the one the
 * site serves and a link found here is one the build's link check would follow.
 */
import { createHash } from 'node:crypto';
import { resolveLink, sourceFacts, urlPathFor, type SourceFacts } from '@folio/builder';
import type { Deps } from '../http/route.ts';
import { isPagePath, isSnippetPath } from './paths.ts';
import { contentRoot, currentText, present, readTexts, type Workspace } from './workspace.ts';

// Facts by content hash: the tree and autocomplete ask again after every save of one page.
const factsCache = new Map<string, SourceFacts>();
const FACTS_KEPT = 5000;

/** Lets other requests run between pages: parsing a large site at once would hold the event loop for seconds. */
let parsedSinceYield = 0;
async function yieldSometimes(): Promise<void> {
  if (++parsedSinceYield < 10) return;
  parsedSinceYield = 0;
  await new Promise((resolve) => setImmediate(resolve));
}

function factsOf(text: string, path: string): SourceFacts {
  const key = `${path}\0${createHash('sha1').update(text).digest('hex')}`;
  let facts = factsCache.get(key);
  if (!facts) {
    facts = sourceFacts(text, path);
    factsCache.set(key, facts);
    if (factsCache.size > FACTS_KEPT) factsCache.delete(factsCache.keys().next().value!);
  }
  return facts;
}

export interface IndexedPage { path: string; url: string; title: string; headings: { id: string; text: string; depth: number }[] }

/** Every page of the workspace (drafts included, deleted pages left out). */
export async function pageIndex(deps: Deps, ws: Workspace): Promise<IndexedPage[]> {
  const root = await contentRoot(deps, ws);
  await readTexts(deps, ws, ws.files.filter((f) => isPagePath(f.path)).map((f) => f.path));
  const pages: IndexedPage[] = [];
  for (const f of ws.files) {
    if (!present(f) || !isPagePath(f.path)) continue;
    const text = await currentText(deps, ws, f.path);
    if (text === undefined) continue;
    await yieldSometimes();
    const facts = factsOf(text, f.path);
    const url = urlPathFor(f.path, root);
    pages.push({ path: f.path, url, title: facts.title ?? f.path.replace(/^.*\//, '').replace(/\.(mdx|md)$/i, ''), headings: facts.headings });
  }
  return pages;
}

/** A link found in a file: where, the text of its line, and what to write instead. */
export interface FoundLink { path: string; line: number; text: string; href: string; replacement: string }

/**
 * Links in pages and snippets to the old URL of any page of `moved` (repository paths before and
 * after), with the href that points at the new URL (same `#anchor` and query), and the page
 * references of docs.json's navigation (`"guides/install"`: the path from the content root
 * without extension, as the builder reads them).
 */
export async function linksTo(deps: Deps, ws: Workspace, moved: ReadonlyArray<{ from: string; to: string }>): Promise<FoundLink[]> {
  const root = await contentRoot(deps, ws);
  const pages = moved.filter((m) => isPagePath(m.from));
  const urls = new Map(pages.map((m) => [urlPathFor(m.from, root), urlPathFor(m.to, root)]));
  await readTexts(deps, ws, ws.files.filter((f) => /\.(mdx|md)$/i.test(f.path)).map((f) => f.path));
  const found: FoundLink[] = [];
  for (const f of ws.files) {
    if (!present(f) || !(isPagePath(f.path) || (isSnippetPath(f.path) && /\.(mdx|md)$/i.test(f.path)))) continue;
    const text = await currentText(deps, ws, f.path);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const pageUrl = urlPathFor(f.path, root);
    await yieldSometimes();
    for (const link of factsOf(text, f.path).links) {
      const resolved = resolveLink(link.href, pageUrl, '');
      const target = resolved && urls.get(resolved.path);
      if (!resolved || target === undefined) continue;
      const rest = link.href.match(/[?#].*$/)?.[0] ?? '';
      found.push({ path: f.path, line: link.line, text: (lines[link.line - 1] ?? '').trim(), href: link.href, replacement: `${target}${rest}` });
    }
  }
  const config = await currentText(deps, ws, 'docs.json');
  if (config !== undefined) {
    const lines = config.split('\n');
    const ref = (p: string) => (root && p.startsWith(root) ? p.slice(root.length) : p).replace(/\.(mdx|md)$/i, '');
    for (const m of pages) {
      for (const lead of ['', '/']) {
        const oldRef = `${lead}${ref(m.from)}`;
        lines.forEach((line, i) => {
          if (line.includes(JSON.stringify(oldRef))) found.push({ path: 'docs.json', line: i + 1, text: line.trim(), href: oldRef, replacement: `${lead}${ref(m.to)}` });
        });
      }
    }
  }
  return found;
}

/** `text` with each found link on its line rewritten to its replacement. */
export function rewriteLinks(text: string, links: FoundLink[]): string {
  const lines = text.split('\n');
  for (const link of links) {
    const i = link.line - 1;
    const line = lines[i];
    if (line === undefined) continue;
    lines[i] = link.path === 'docs.json'
      ? line.split(JSON.stringify(link.href)).join(JSON.stringify(link.replacement))
      : line.split(`(${link.href}`).join(`(${link.replacement}`).split(`"${link.href}"`).join(`"${link.replacement}"`).split(`'${link.href}'`).join(`'${link.replacement}'`).split(`<${link.href}>`).join(`<${link.replacement}>`).split(`]: ${link.href}`).join(`]: ${link.replacement}`);
  }
  return lines.join('\n');
}

/**
 * The links a page writes, with their positions in its source, for the build's link check
 * (links/link-check.ts). Read from the syntax tree as written: Markdown links and link
 * definitions, the literal `href` of any JSX element (`<a>`, `<Card>`, `<Button>`, …), and
 * images written from the docs root (`![](/images/a.png)`, `<img src="/images/a.png">`).
 * An `href={expression}` is only known when the page runs and is not checked; neither are links
 * inside imported snippets (they are checked where the snippet's text is a page's own).
 */
import type { Nodes, Root } from 'mdast';
import type { PageLink } from '../types.ts';
import { isJsx, stringProp } from './jsx-attributes.ts';

/** Most links kept per page: a generated page with more is checked on its first ones. */
export const MAX_PAGE_LINKS = 5000;

/** Elements whose `src` is a file of the site. */
const MEDIA = new Set(['img', 'video', 'source', 'audio']);

/** `src` when it is a path from the docs root (not `//host`), else undefined. */
const rooted = (src: string | undefined) => (src && src.startsWith('/') && !src.startsWith('//') ? src : undefined);

/** Every link of `tree` in document order. */
export function collectLinks(tree: Root): PageLink[] {
  const links: PageLink[] = [];
  const add = (href: string | undefined, node: Nodes) => {
    if (href === undefined || links.length >= MAX_PAGE_LINKS) return;
    links.push({ href, line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 });
  };
  const visit = (node: Nodes): void => {
    if (node.type === 'link' || node.type === 'definition') add(node.url, node);
    // Images written from the docs root (`/images/a.png`): a missing one is reported too. Relative
    // ones are left alone: they resolve against the page's URL, which is not its file's folder for an index page.
    else if (node.type === 'image') add(rooted(node.url), node);
    else if (isJsx(node)) add(stringProp(node, 'href') ?? (node.name && MEDIA.has(node.name) ? rooted(stringProp(node, 'src')) : undefined), node);
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return links;
}

/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * The sidebar's `<nav>`. A full sidebar (every group drawn) is the same on every page of its site
 * but for which links are marked current, so its HTML is rendered once per navigation tree and
 * base path, and each page's copy only adds `aria-current="page"` to the links of its own path,
 * byte for byte what drawing it again would give. A focused sidebar (past
 * `FULL_SIDEBAR_MAX_PAGES`) and one with groups that fold (`expanded`, whose `open` follows the
 * current page) are drawn for each page. Why: a 1,000-page site drew its 1,000-entry sidebar
 * once per page, the largest part of rendering its shells (builder docs/benchmarks.md,
 * "Sandboxes without Vite, sidebars drawn once").
 */
import { render } from 'preact-render-to-string';
import type { NavItem } from '../shared/types.ts';
import { NavIconSprite } from './nav-icon-sprite.tsx';
import { countPages, FULL_SIDEBAR_MAX_PAGES, NavList } from './nav-list.tsx';
import { withBase } from './urls.ts';

/** A path no page has: the full sidebar with nothing marked current. */
const NO_PAGE = '\u0000';

function NavBody({ items, current, basePath, focused }: { items: NavItem[]; current: string; basePath: string; focused: boolean }) {
  return (
    <>
      <NavIconSprite items={items} />
      <NavList items={items} current={current} basePath={basePath} focused={focused} />
    </>
  );
}

const foldsOf = new WeakMap<NavItem[], boolean>();

/** Whether a tree has a group that folds (`expanded` set), memoised per tree. */
export function hasFolds(items: NavItem[]): boolean {
  let folds = foldsOf.get(items);
  if (folds === undefined) {
    folds = items.some((item) => item.kind !== 'page' && ((item.kind === 'group' && item.expanded !== undefined) || hasFolds(item.items)));
    foldsOf.set(items, folds);
  }
  return folds;
}

/**
 * A full sidebar's HTML with nothing current, and where each link's opening tag is in it (by the
 * tag's text), so a page's copy is spliced around its own links instead of searched.
 */
interface FullBody { html: string; links: Map<string, number[]> }

/** Full sidebars per tree and base path. */
const bodies = new WeakMap<NavItem[], Map<string, FullBody>>();

/** The two forms of link `NavList` may mark current, as Preact writes them unmarked. */
const LINK = /<a (?:class="nav-group-title" )?href="[^"]*">/g;

function fullBody(items: NavItem[], basePath: string): FullBody {
  let byBase = bodies.get(items);
  if (!byBase) bodies.set(items, (byBase = new Map()));
  let body = byBase.get(basePath);
  if (body === undefined) {
    const html = render(<NavBody items={items} current={NO_PAGE} basePath={basePath} focused={false} />);
    const links = new Map<string, number[]>();
    for (const match of html.matchAll(LINK)) {
      const at = links.get(match[0]);
      if (at) at.push(match.index);
      else links.set(match[0], [match.index]);
    }
    body = { html, links };
    byBase.set(basePath, body);
  }
  return body;
}

/** The opening tag Preact writes for `<a {...props}>`. */
const openingTag = (props: Record<string, string>) => render(<a {...props} />).slice(0, -'</a>'.length);

/** The full sidebar with the links to `path` marked current, as `NavList` marks them: page links and group titles. */
function markCurrent({ html, links }: FullBody, path: string, basePath: string): string {
  const href = withBase(basePath, path);
  const edits: Array<{ at: number; plain: string; marked: string }> = [];
  const forms: Array<Record<string, string>> = [{ href }, { class: 'nav-group-title', href }];
  for (const attrs of forms) {
    const plain = openingTag(attrs);
    const marked = openingTag({ ...attrs, 'aria-current': 'page' });
    for (const at of links.get(plain) ?? []) edits.push({ at, plain, marked });
  }
  if (!edits.length) return html;
  edits.sort((a, b) => a.at - b.at);
  let out = '';
  let from = 0;
  for (const { at, plain, marked } of edits) {
    out += html.slice(from, at) + marked;
    from = at + plain.length;
  }
  return out + html.slice(from);
}

/** The sidebar's navigation with `current` marked. */
export function SidebarNav({ items, current, basePath }: { items: NavItem[]; current: string; basePath: string }) {
  if (countPages(items) > FULL_SIDEBAR_MAX_PAGES || hasFolds(items)) return <SidebarNavDrawn items={items} current={current} basePath={basePath} />;
  return <nav class="sidebar-nav" aria-label="Documentation" dangerouslySetInnerHTML={{ __html: markCurrent(fullBody(items, basePath), current, basePath) }} />;
}

/** The navigation drawn for this one page (a focused or folding sidebar, and what a cached copy must equal). */
export function SidebarNavDrawn({ items, current, basePath }: { items: NavItem[]; current: string; basePath: string }) {
  return (
    <nav class="sidebar-nav" aria-label="Documentation">
      <NavBody items={items} current={current} basePath={basePath} focused={countPages(items) > FULL_SIDEBAR_MAX_PAGES} />
    </nav>
  );
}

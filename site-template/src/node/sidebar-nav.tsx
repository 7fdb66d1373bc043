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

/** Full sidebars' HTML with nothing current, per tree and base path. */
const bodies = new WeakMap<NavItem[], Map<string, string>>();

function fullBody(items: NavItem[], basePath: string): string {
  let byBase = bodies.get(items);
  if (!byBase) bodies.set(items, (byBase = new Map()));
  let html = byBase.get(basePath);
  if (html === undefined) {
    html = render(<NavBody items={items} current={NO_PAGE} basePath={basePath} focused={false} />);
    byBase.set(basePath, html);
  }
  return html;
}

/** The opening tag Preact writes for `<a {...props}>`. */
const openingTag = (props: Record<string, string>) => render(<a {...props} />).slice(0, -'</a>'.length);

/** `html` with the links to `path` marked current, as `NavList` marks them: page links and group titles. */
function markCurrent(html: string, path: string, basePath: string): string {
  const href = withBase(basePath, path);
  let out = html;
  const links: Array<Record<string, string>> = [{ href }, { class: 'nav-group-title', href }];
  for (const attrs of links) {
    out = out.replaceAll(openingTag(attrs), openingTag({ ...attrs, 'aria-current': 'page' }));
  }
  return out;
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

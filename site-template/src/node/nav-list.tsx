/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * A sidebar's navigation list: every group drawn, or, past {@link FULL_SIDEBAR_MAX_PAGES}, focused
 * on the current page. sidebar-nav.tsx decides which and reuses a full list's HTML across pages.
 */
import { IconGlyph } from '../components/icon.tsx';
import type { NavItem } from '../shared/types.ts';
import { NavIconUse } from './nav-icon-sprite.tsx';
import { withBase } from './urls.ts';

/**
 * Every group of a sidebar is drawn, as Mintlify draws it, up to this many pages in the sidebar
 * (one tab, version or language: Mintlify's own docs have about 300 in their largest). Past it a
 * sidebar is focused: the groups on the way to the current page are open, every other group is
 * its title linking to its first page. A full sidebar in every page of a 10,000-page sidebar
 * would weigh more than the page itself and make building quadratic; the focused one keeps every
 * page reachable in two clicks, with JavaScript off too. Measured on a 300-page sidebar of the
 * sample page: a full one adds 21 KB of HTML, 1 KB gzipped (builder docs/authoring.md, "Sidebars").
 */
export const FULL_SIDEBAR_MAX_PAGES = 1_500;

const pageCounts = new WeakMap<NavItem[], number>();

/** Pages in a navigation tree (memoised: every page of a site shares one tree). */
export function countPages(items: NavItem[]): number {
  let n = pageCounts.get(items);
  if (n === undefined) {
    n = items.reduce((sum, item) => sum + (item.kind === 'page' ? 1 : countPages(item.items)), 0);
    pageCounts.set(items, n);
  }
  return n;
}

/** The page paths under each list of a navigation tree, memoised (every page of a site asks of the same tree). */
const pathsUnder = new WeakMap<NavItem[], Set<string>>();

function pathsOf(items: NavItem[]): Set<string> {
  let paths = pathsUnder.get(items);
  if (!paths) {
    paths = new Set();
    for (const item of items) {
      if (item.kind === 'page') paths.add(item.path);
      else for (const p of pathsOf(item.items)) paths.add(p);
    }
    pathsUnder.set(items, paths);
  }
  return paths;
}

export const contains = (items: NavItem[], path: string) => pathsOf(items).has(path);

function firstPage(items: NavItem[]): string | undefined {
  for (const item of items) {
    const path = item.kind === 'page' ? item.path : firstPage(item.items);
    if (path !== undefined) return path;
  }
  return undefined;
}

/** The icon before a sidebar label (a named icon's symbol from the sidebar's sprite, an image, or an emoji), if any. */
function NavIcon({ icon, basePath }: { icon?: string; basePath: string }) {
  if (!icon) return null;
  // An image path is written from the docs root, like every other path of docs.json.
  return NavIconUse({ icon }) ?? <IconGlyph icon={icon.startsWith('/') && !icon.startsWith('//') ? withBase(basePath, icon) : icon} class="nav-icon" />;
}

export function NavList({ items, current, basePath, focused }: { items: NavItem[]; current: string; basePath: string; focused: boolean }) {
  return (
    <ul>
      {items.map((item) => {
        if (item.kind === 'page') {
          // Mintlify's `url` page: an entry that opens another site.
          if (item.href !== undefined) {
            return (
              <li>
                <a href={item.href} target="_blank" rel="noopener noreferrer" class="nav-external"><NavIcon icon={item.icon} basePath={basePath} />{item.title}</a>
              </li>
            );
          }
          return (
            <li>
              <a href={withBase(basePath, item.path)} aria-current={item.path === current ? 'page' : undefined}><NavIcon icon={item.icon} basePath={basePath} />{item.title}</a>
            </li>
          );
        }
        const holdsCurrent = contains(item.items, current);
        const first = focused && !holdsCurrent ? firstPage(item.items) : undefined;
        const tag = item.tag ? <span class="nav-tag">{item.tag}</span> : null;
        const group = item.kind === 'group' ? item : undefined;
        const root = group?.path;
        const label = <><NavIcon icon={group?.icon} basePath={basePath} />{item.title}{tag}</>;
        if (first !== undefined) {
          return (
            <li class="nav-group nav-group-collapsed">
              <a class="nav-group-title" href={withBase(basePath, root ?? first)}>{label}</a>
            </li>
          );
        }
        const title = root !== undefined
          ? <a class="nav-group-title" href={withBase(basePath, root)} aria-current={root === current ? 'page' : undefined}>{label}</a>
          : <p class="nav-group-title">{label}</p>;
        const list = <NavList items={item.items} current={current} basePath={basePath} focused={focused} />;
        // Mintlify's `expanded`: a group that says it is collapsible, open as asked or when it holds
        // the current page. A native <details> folds without JavaScript.
        if (group?.expanded !== undefined) {
          return (
            <li class="nav-group nav-group-toggle">
              <details open={group.expanded || holdsCurrent || (root !== undefined && root === current)}>
                <summary>{title}</summary>
                {list}
              </details>
            </li>
          );
        }
        return <li class="nav-group">{title}{list}</li>;
      })}
    </ul>
  );
}

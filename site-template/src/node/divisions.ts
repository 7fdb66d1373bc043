/**
 * Navigation divisions (`navigation` in its object form: languages, versions, products,
 * dropdowns, tabs, anchors) resolved for one page. The site has one navigation tree; each page
 * shows the part of it it belongs to:
 *
 * - at each level, the outermost kind of division present (in the order language, version,
 *   product, dropdown, tab, anchor) splits the tree; the page's own division (the one holding
 *   it, else the `default` one, else the first; anchors and dropdowns only when they hold it) is
 *   entered, and the level's other items (groups,
 *   pages, divisions of other kinds) follow its items;
 * - languages, versions and products become switchers (each option links to the first page of
 *   its division), tabs the header's tab row, dropdowns and anchors links at the top of the
 *   sidebar; a division with `href` and no pages is a plain link;
 * - a tab's menu items (`item` divisions, Mintlify's `menu`) become the tab's dropdown in the
 *   header, each item linking to its first page (or `href`); the page's own item (else the
 *   default, else the first) fills the sidebar;
 * - what remains once no division is left is the sidebar.
 */
import type { DivisionKind, NavItem, Switcher } from '../shared/types.ts';

/** A link to a division: its first page, or its `href`. */
export interface DivisionLink {
  title: string; href: string; current: boolean; external: boolean; tag?: string;
  /** A tab's menu (Mintlify's `menu`): the items of its dropdown in the header. */
  menu?: MenuLink[];
}

/** An item of a tab's menu. */
export interface MenuLink { title: string; href: string; current: boolean; external: boolean; description?: string; icon?: string }

/** What one page shows of the navigation tree. */
export interface ScopedNav {
  sidebar: NavItem[];
  tabs: DivisionLink[];
  /** Anchors and dropdowns, shown at the top of the sidebar. */
  anchors: DivisionLink[];
  switchers: Partial<Record<'language' | 'version' | 'product', Switcher>>;
}

type Division = Extract<NavItem, { kind: 'division' }>;

const ORDER: DivisionKind[] = ['language', 'version', 'product', 'dropdown', 'tab', 'item', 'anchor'];

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);

/** Where a division leads: its first page, else its `href`, else (a tab of menu links only) its first item's `href`. */
function targetOf(d: Division): string | undefined {
  return firstPath(d.items) ?? d.href ?? d.items.find((i): i is Division => i.kind === 'division' && i.division === 'item' && i.href !== undefined)?.href;
}

/** First page of a subtree, depth-first. */
export function firstPath(items: readonly NavItem[]): string | undefined {
  for (const item of items) {
    const path = item.kind === 'page' ? item.path : item.kind === 'group' ? item.path ?? firstPath(item.items) : firstPath(item.items);
    if (path !== undefined) return path;
  }
  return undefined;
}

function holds(items: readonly NavItem[], path: string): boolean {
  return items.some((item) => (item.kind === 'page' ? item.path === path : (item.kind === 'group' && item.path === path) || holds(item.items, path)));
}

/** Whether a tree has divisions anywhere (sites without them skip the scoping entirely). */
export function hasDivisions(items: readonly NavItem[]): boolean {
  return items.some((item) => item.kind === 'division' || (item.kind === 'group' && hasDivisions(item.items)));
}

/** The part of `nav` the page at `current` shows. */
export function scopeNav(nav: NavItem[], current: string): ScopedNav {
  const out: ScopedNav = { sidebar: nav, tabs: [], anchors: [], switchers: {} };
  let level = nav;
  // Each pass removes one kind of division from the level, so this ends.
  for (;;) {
    const kind = ORDER.find((k) => level.some((item) => item.kind === 'division' && item.division === k));
    if (!kind) break;
    const ofKind = level.filter((item): item is Division => item.kind === 'division' && item.division === kind);
    const rest = level.filter((item) => !(item.kind === 'division' && item.division === kind));
    const withPages = ofKind.filter((d) => d.items.length > 0);
    // Anchors and dropdowns are links beside the sidebar: entered only by their own pages.
    const linksOnly = kind === 'anchor' || kind === 'dropdown';
    const chosen = withPages.find((d) => holds(d.items, current)) ?? (linksOnly ? undefined : withPages.find((d) => d.default) ?? withPages[0]);
    const links = ofKind.flatMap((d): DivisionLink[] => {
      const href = targetOf(d);
      if (href === undefined) return [];
      const menu = kind === 'tab' ? menuOf(d, current) : [];
      return [{
        title: d.title, href, current: d === chosen, external: !firstPath(d.items) && isExternal(href), ...(d.tag ? { tag: d.tag } : {}), ...(menu.length ? { menu } : {}),
      }];
    });
    // Menu items (`item`) are drawn as their tab's dropdown, built with the tab: only entered here.
    if (kind === 'tab') out.tabs = links;
    else if (kind === 'anchor' || kind === 'dropdown') out.anchors = [...out.anchors, ...links];
    else if (chosen && kind !== 'item') out.switchers[kind] = { current: chosen.title, options: links.map(({ title, href }) => ({ label: title, href })) };
    level = [...(chosen?.items ?? []), ...rest];
  }
  out.sidebar = level;
  return out;
}

/** The menu items of a tab, each leading to its first page or its `href`; the one holding `current` marked. */
function menuOf(tab: Division, current: string): MenuLink[] {
  return tab.items.flatMap((i): MenuLink[] => {
    if (i.kind !== 'division' || i.division !== 'item') return [];
    const href = targetOf(i);
    if (href === undefined) return [];
    return [{
      title: i.title, href, current: holds(i.items, current), external: !firstPath(i.items) && isExternal(href),
      ...(i.description ? { description: i.description } : {}), ...(i.icon ? { icon: i.icon } : {}),
    }];
  });
}

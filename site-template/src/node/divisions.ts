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
 * - what remains once no division is left is the sidebar.
 */
import type { DivisionKind, NavItem, Switcher } from '../shared/types.ts';

/** A link to a division: its first page, or its `href`. */
export interface DivisionLink { title: string; href: string; current: boolean; external: boolean; tag?: string }

/** What one page shows of the navigation tree. */
export interface ScopedNav {
  sidebar: NavItem[];
  tabs: DivisionLink[];
  /** Anchors and dropdowns, shown at the top of the sidebar. */
  anchors: DivisionLink[];
  switchers: Partial<Record<'language' | 'version' | 'product', Switcher>>;
}

type Division = Extract<NavItem, { kind: 'division' }>;

const ORDER: DivisionKind[] = ['language', 'version', 'product', 'dropdown', 'tab', 'anchor'];

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
      const href = firstPath(d.items) ?? d.href;
      if (href === undefined) return [];
      return [{ title: d.title, href, current: d === chosen, external: !firstPath(d.items) && /^[a-z][a-z0-9+.-]*:/i.test(href), ...(d.tag ? { tag: d.tag } : {}) }];
    });
    if (kind === 'tab') out.tabs = links;
    else if (kind === 'anchor' || kind === 'dropdown') out.anchors = [...out.anchors, ...links];
    else if (chosen) out.switchers[kind] = { current: chosen.title, options: links.map(({ title, href }) => ({ label: title, href })) };
    level = [...(chosen?.items ?? []), ...rest];
  }
  out.sidebar = level;
  return out;
}

/**
 * Previous/next links follow the sidebar's reading order (depth-first, top to bottom), as
 * Mintlify's do: across groups, tabs, anchors, dropdowns and products, but never from one
 * language or version to another (the last English page does not lead to the first French one).
 */
import { perSidebar } from './per-sidebar.ts';
import type { NavItem } from '@folio/site-template/shared/types.ts';

/** A page link as the shell shows it. */
export interface NavLink { title: string; path: string }

/**
 * Every page of the sidebar in reading order; a page listed twice counts at its first place. A
 * group's root page (its title links to it) comes before the group's pages.
 */
export function readingOrder(nav: readonly NavItem[]): NavLink[] {
  const seen = new Set<string>();
  const out: NavLink[] = [];
  const walk = (items: readonly NavItem[]) => {
    const add = (title: string, path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      out.push({ title, path });
    };
    for (const item of items) {
      if (item.kind === 'page') add(item.title, item.path);
      else {
        if (item.kind === 'group' && item.path !== undefined) add(item.title, item.path);
        walk(item.items);
      }
    }
  };
  walk(nav);
  return out;
}

/** Previous and next page of one page; absent at the ends and for pages outside the sidebar. */
export interface PrevNext { prev?: NavLink; next?: NavLink }

/** The pages before and after `path` in reading order (within its language and version). */
export function prevNext(nav: readonly NavItem[], path: string): PrevNext {
  return prevNextByPath(nav).get(path) ?? {};
}

/** Divisions whose pages form a reading order of their own. */
const SEPARATE = new Set(['language', 'version']);

/** The nav split where a language or version starts: the rest of the tree, then each such division (nested ones split again). */
function sequences(nav: readonly NavItem[]): NavItem[][] {
  const out: NavItem[][] = [];
  const split = (items: readonly NavItem[]): NavItem[] => items.flatMap((item): NavItem[] => {
    if (item.kind === 'page') return [item];
    if (item.kind === 'division' && SEPARATE.has(item.division)) {
      out.push(split(item.items));
      return [];
    }
    return [{ ...item, items: split(item.items) }];
  });
  out.unshift(split(nav));
  return out;
}

/** {@link prevNext} for every page of the sidebar at once (one walk, for whole-site renders), made once per sidebar. */
export const prevNextByPath = perSidebar((nav): ReadonlyMap<string, PrevNext> => {
  const out = new Map<string, PrevNext>();
  for (const part of sequences(nav)) {
    const order = readingOrder(part).filter((link) => !out.has(link.path));
    order.forEach((link, i) => {
      const entry: PrevNext = {};
      if (i > 0) entry.prev = order[i - 1];
      if (i < order.length - 1) entry.next = order[i + 1];
      out.set(link.path, entry);
    });
  }
  return out;
});

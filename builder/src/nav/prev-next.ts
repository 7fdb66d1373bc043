/** Previous/next links follow the sidebar's reading order (depth-first, top to bottom). */
import type { NavItem } from '@folio/site-template/shared/types.ts';

/** A page link as the shell shows it. */
export interface NavLink { title: string; path: string }

/** Every page of the sidebar in reading order; a page listed twice counts at its first place. */
export function readingOrder(nav: readonly NavItem[]): NavLink[] {
  const seen = new Set<string>();
  const out: NavLink[] = [];
  const walk = (items: readonly NavItem[]) => {
    for (const item of items) {
      if (item.kind !== 'page') walk(item.items);
      else if (!seen.has(item.path)) {
        seen.add(item.path);
        out.push({ title: item.title, path: item.path });
      }
    }
  };
  walk(nav);
  return out;
}

/** Previous and next page of one page; absent at the ends and for pages outside the sidebar. */
export interface PrevNext { prev?: NavLink; next?: NavLink }

/** The pages before and after `path` in reading order. */
export function prevNext(nav: readonly NavItem[], path: string): PrevNext {
  return prevNextByPath(nav).get(path) ?? {};
}

/** {@link prevNext} for every page of the sidebar at once (one walk, for whole-site renders). */
export function prevNextByPath(nav: readonly NavItem[]): Map<string, PrevNext> {
  const order = readingOrder(nav);
  const out = new Map<string, PrevNext>();
  order.forEach((link, i) => {
    const entry: PrevNext = {};
    if (i > 0) entry.prev = order[i - 1];
    if (i < order.length - 1) entry.next = order[i + 1];
    out.set(link.path, entry);
  });
  return out;
}

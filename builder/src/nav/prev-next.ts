/**
 * Previous/next links follow the sidebar's reading order (depth-first, top to bottom), within
 * the page's own divisions: the last page of a tab has no "next" into the following tab.
 */
import type { NavItem } from '@folio/site-template/shared/types.ts';

/** A page link as the shell shows it. */
export interface NavLink { title: string; path: string }

/** Every page of the sidebar in reading order; a page listed twice counts at its first place. */
export function readingOrder(nav: readonly NavItem[]): NavLink[] {
  return scopedReadingOrder(nav).map(({ link }) => link);
}

/** {@link readingOrder} with each page's divisions (tab, anchor, …), as a key. */
function scopedReadingOrder(nav: readonly NavItem[]): { link: NavLink; scope: string }[] {
  const seen = new Set<string>();
  const out: { link: NavLink; scope: string }[] = [];
  const walk = (items: readonly NavItem[], scope: string) => {
    for (const item of items) {
      if (item.kind === 'division') walk(item.items, `${scope}/${item.division}:${item.title}`);
      else if (item.kind !== 'page') walk(item.items, scope);
      else if (!seen.has(item.path)) {
        seen.add(item.path);
        out.push({ link: { title: item.title, path: item.path }, scope });
      }
    }
  };
  walk(nav, '');
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
  const order = scopedReadingOrder(nav);
  const out = new Map<string, PrevNext>();
  order.forEach(({ link, scope }, i) => {
    const entry: PrevNext = {};
    if (i > 0 && order[i - 1].scope === scope) entry.prev = order[i - 1].link;
    if (i < order.length - 1 && order[i + 1].scope === scope) entry.next = order[i + 1].link;
    out.set(link.path, entry);
  });
  return out;
}

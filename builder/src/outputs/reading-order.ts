/**
 * The order site-wide exports list pages in: the sidebar's reading order, then the pages that
 * are not in the sidebar, by path. Listing follows what a reader sees, and is stable.
 */
import type { NavItem } from '@folio/site-template/shared/types.ts';
import { perSidebar } from '../nav/per-sidebar.ts';
import { readingOrder } from '../nav/prev-next.ts';

/** Each sidebar's reading-order ranks by path. */
const ranksOf = perSidebar((nav): ReadonlyMap<string, number> => new Map(readingOrder(nav).map((link, i) => [link.path, i])));

/** `pages` sorted by reading order of `nav`, pages outside it last by `urlPath`. */
export function inReadingOrder<T extends { urlPath: string }>(pages: readonly T[], nav: readonly NavItem[] = []): T[] {
  const rank = ranksOf(nav);
  // Each page's rank looked up once, not twice per comparison (~280,000 lookups at 10,000 pages).
  const ranks = pages.map((page) => rank.get(page.urlPath) ?? Number.POSITIVE_INFINITY);
  const order = pages.map((_, i) => i).sort((i, j) => {
    if (ranks[i] !== ranks[j]) return ranks[i] < ranks[j] ? -1 : 1;
    const a = pages[i].urlPath;
    const b = pages[j].urlPath;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return order.map((i) => pages[i]);
}

/**
 * The order site-wide exports list pages in: the sidebar's reading order, then the pages that
 * are not in the sidebar, by path. Listing follows what a reader sees, and is stable.
 */
import type { NavItem } from '@folio/site-template/shared/types.ts';
import { readingOrder } from '../nav/prev-next.ts';

/** `pages` sorted by reading order of `nav`, pages outside it last by `urlPath`. */
export function inReadingOrder<T extends { urlPath: string }>(pages: readonly T[], nav: readonly NavItem[] = []): T[] {
  const rank = new Map(readingOrder(nav).map((link, i) => [link.path, i]));
  return [...pages].sort((a, b) => {
    const ra = rank.get(a.urlPath) ?? Number.POSITIVE_INFINITY;
    const rb = rank.get(b.urlPath) ?? Number.POSITIVE_INFINITY;
    if (ra !== rb) return ra < rb ? -1 : 1;
    return a.urlPath < b.urlPath ? -1 : a.urlPath > b.urlPath ? 1 : 0;
  });
}

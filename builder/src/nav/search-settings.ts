/**
 * What the navigation says about search, per page (Mintlify's rules):
 *
 * - `boost` on a group multiplies the search ranking of every page under it; a nested group's own
 *   `boost` wins over its ancestors'. It becomes the Pagefind weight of the page's body
 *   (`data-pagefind-weight`, which Pagefind caps at 10).
 * - `searchable: false` on a tab, any other division or a group leaves its pages out of search;
 *   the pages of a `hidden` division or group are left out too, unless it (or a nearer level)
 *   says `searchable: true`, or docs.json says `seo.indexing: "all"` (`indexHidden`).
 *
 * A page listed in several places takes the highest boost and is searchable when any place
 * keeps it so. Pages the navigation does not list keep the defaults (weight 1, searchable).
 */
import type { NavigationEntry } from '../config/navigation-types.ts';
import { pageRef } from './build-nav.ts';

/** Pagefind's highest weight. */
export const MAX_SEARCH_WEIGHT = 10;

/** Per-page search settings by URL path. */
export interface SearchSettings {
  /** The page body's Pagefind weight, when a group boosts it. */
  weight(urlPath: string): number | undefined;
  /** Whether the page is left out of search. */
  excluded(urlPath: string): boolean;
}

interface Inherited { boost?: number; searchable?: boolean; hidden: boolean }

/**
 * The search settings of `pages` from the navigation tree, or undefined when the navigation sets
 * no `boost`, no `searchable` and hides nothing (the usual case: nothing changes in the index).
 */
export function searchSettingsOf(
  items: readonly NavigationEntry[] | undefined,
  pages: readonly { sourcePath: string; urlPath: string }[],
  contentRoot: string,
  indexHidden = false,
): SearchSettings | undefined {
  if (!items) return undefined;
  const boostOf = new Map<string, number>();
  const searchableOf = new Map<string, boolean>();
  let any = false;
  const walk = (list: readonly NavigationEntry[], from: Inherited) => {
    for (const entry of list) {
      if (typeof entry === 'string') {
        const ref = entry.replace(/^\S+ (?=[A-Z]+ \/)/, '');
        const searchable = from.searchable ?? (indexHidden || !from.hidden);
        searchableOf.set(ref, (searchableOf.get(ref) ?? false) || searchable);
        if (from.boost !== undefined) boostOf.set(ref, Math.max(boostOf.get(ref) ?? 0, from.boost));
        continue;
      }
      const hidden = from.hidden || entry.hidden === true;
      const boost = 'group' in entry ? entry.boost ?? from.boost : from.boost;
      const searchable = entry.searchable ?? (entry.hidden ? undefined : from.searchable);
      if (entry.hidden || entry.searchable !== undefined || ('group' in entry && entry.boost !== undefined)) any = true;
      const next = { boost, searchable, hidden };
      if ('group' in entry) {
        if (entry.root !== undefined) walk([entry.root], next);
        walk(entry.pages, next);
      } else walk(entry.items, next);
    }
  };
  walk(items, { hidden: false });
  if (!any) return undefined;
  const byUrl = new Map<string, { weight?: number; excluded: boolean }>();
  for (const page of pages) {
    const ref = pageRef(page, contentRoot);
    // `guides` also names `guides/index`.
    const refs = [ref, ref.replace(/\/index$/, '')];
    const listed = refs.find((r) => searchableOf.has(r));
    if (listed === undefined) continue;
    const boost = boostOf.get(listed);
    byUrl.set(page.urlPath, {
      ...(boost !== undefined ? { weight: Math.min(MAX_SEARCH_WEIGHT, Math.round(boost * 100) / 100) } : {}),
      excluded: !searchableOf.get(listed),
    });
  }
  return {
    weight: (urlPath) => byUrl.get(urlPath)?.weight,
    excluded: (urlPath) => byUrl.get(urlPath)?.excluded ?? false,
  };
}

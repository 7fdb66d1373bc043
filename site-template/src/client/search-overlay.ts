/**
 * The search overlay on the reader's side. The builder indexes recently changed pages into a
 * small extra bundle (the overlay) instead of re-indexing their shards, so a shard may still hold
 * a page's previous version, or a deleted page. `overlay.json` names the overlay's bundle, the
 * Pagefind ids of its pages and every URL it covers; a result for a covered URL is kept only when
 * it comes from the overlay.
 */

/** What the browser keeps of `overlay.json`. */
export interface SearchOverlay {
  /** Site path of the overlay's bundle, to merge; absent when it covers deleted pages only. */
  base?: string;
  /** Pagefind ids of the overlay's pages. */
  ids: ReadonlySet<string>;
  /** URLs (no anchor) whose shard results are out of date. */
  urls: ReadonlySet<string>;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Reads the overlay's list at `listUrl` (a site path). The list changes with every edit at a
 * stable URL: it is revalidated, not taken from the cache. A missing or unreadable list (a site
 * built before overlays) means no overlay.
 */
export async function loadOverlay(listUrl: string): Promise<SearchOverlay | undefined> {
  const url = new URL(listUrl, location.href);
  const res = await fetch(url, { cache: 'no-cache' });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`search overlay: HTTP ${res.status}`);
  let value: { version?: unknown; base?: unknown; ids?: unknown; urls?: unknown };
  try {
    value = (await res.json()) as typeof value;
  } catch {
    return undefined;
  }
  if (value?.version !== 1) return undefined;
  return {
    ...(typeof value.base === 'string' && value.base ? { base: new URL(value.base, url).pathname } : {}),
    ids: new Set(strings(value.ids)),
    urls: new Set(strings(value.urls)),
  };
}

/** A Pagefind result as the dialog reads it. */
export interface RankedResult<D> { id: string; data(): Promise<D> }

/**
 * The first `max` results that are current, in Pagefind's order: a result whose URL the overlay
 * covers is dropped unless it is the overlay's, and a URL is shown once. Results' data are
 * loaded a batch at a time, as many as still needed. `dropped` counts the results left out.
 */
export async function currentResults<D extends { url: string }>(results: readonly RankedResult<D>[], overlay: SearchOverlay | undefined, max: number): Promise<{ data: D[]; dropped: number }> {
  const data: D[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (let i = 0; i < results.length && data.length < max;) {
    const batch = results.slice(i, i + max - data.length);
    i += batch.length;
    const loaded = await Promise.all(batch.map((r) => r.data()));
    batch.forEach((result, j) => {
      const url = loaded[j].url.split('#')[0];
      if (seen.has(url) || (overlay?.urls.has(url) && !overlay.ids.has(result.id))) { dropped++; return; }
      seen.add(url);
      data.push(loaded[j]);
    });
  }
  return { data, dropped };
}

/**
 * The search overlay: a small Pagefind bundle holding the pages that changed since their home
 * shard was last indexed, so that an edit indexes its page rather than its page's whole shard
 * (250-400 pages). The browser merges the overlay like the shards and drops every home-shard
 * result whose URL the overlay covers (its pages and the deleted pages), using
 * `_pagefind/overlay.json`.
 *
 * What the overlay holds follows from the published state alone, so an unchanged site writes
 * the same bytes: each home shard records a stamp per page (`ShardEntry.stamps`, the hash of the
 * page's search document and filters when the shard was indexed); a page whose stamp differs
 * from its home's, or that its home lacks, goes to the overlay, and a page its home holds but the
 * site no longer has is listed as deleted. Edits accumulate in it across builds.
 *
 * When more than `limit` URLs would be covered, the shards holding the most of them are
 * re-indexed, one after another, until the rest fits: each such fold re-indexes as few shards
 * as it can (at 10,000 pages a fold of every shard would index the whole site again), and a
 * folded shard's pages leave the overlay.
 */
import { createHash } from 'node:crypto';
import { shardCount, shardOf, scopeTags, type SearchFilters } from './search-shards.ts';
import { sha256Again } from '../sha256.ts';

/** URLs the overlay covers at most by default (see builder docs/site-outputs.md, "Search shards", for why 32). */
export const OVERLAY_LIMIT = 32;

/** Key of the list the browser reads: the overlay's bundle, its pages' ids and the URLs it covers. */
export const OVERLAY_LIST_KEY = '_pagefind/overlay.json';

/** Name of the overlay in `StartedShard` maps (never a shard name, which is `<count>-<index>`). */
export const OVERLAY_NAME = 'overlay';

/**
 * Files of a Pagefind bundle a merged bundle never serves: the browser loads Pagefind's script,
 * worker and WebAssembly from the first shard, and the overlay is always merged into it.
 */
const MERGED_UNUSED = /^(pagefind(-worker|-highlight)?\.js|wasm\.[^/]+\.pagefind)$/;

/** Whether a file of a bundle (its name inside the bundle) is needed when that bundle is merged. */
export function servedWhenMerged(file: string): boolean {
  return !MERGED_UNUSED.test(file);
}

/** Site path of an overlay bundle: named by its fingerprint, so a changed overlay is a new folder. */
export function overlayBase(fingerprint: string): string {
  return `/_pagefind/overlay-${fingerprint.slice(0, 16)}/`;
}

/**
 * A page's stamp: what its shard indexed of it (its search document's hash and its filters), in
 * 16 hex digits. Equal stamps mean the home shard's copy of the page is current.
 */
export function pageStamp(urlPath: string, searchHash: string, filters?: SearchFilters): string {
  // Every build stamps every page twice (planning the overlay, then writing it). Without filters
  // the stamp depends on the hash alone, looked up as it is: a long-lived builder passes the
  // same strings build after build, whose hash V8 keeps, instead of a new text to hash each time.
  if (!filters) {
    let stamp = plainStamps.get(searchHash);
    if (stamp === undefined) {
      if (plainStamps.size >= MAX_PLAIN_STAMPS) plainStamps.clear();
      plainStamps.set(searchHash, stamp = sha256Again(`${searchHash}\0`).slice(0, 16));
    }
    return stamp;
  }
  return sha256Again(`${searchHash}\0${scopeTags(urlPath, filters)}`).slice(0, 16);
}

/** Search hash → stamp of a page without filters; at most this many (then it starts again empty). */
const MAX_PLAIN_STAMPS = 100_000;
const plainStamps = new Map<string, string>();

/** What the previous build left: its home shards' stamps, by shard name. */
export interface HomeShards {
  /** Docs base path the shards were indexed with; another one makes every shard unusable. */
  basePath?: string;
  shards: ReadonlyArray<{ name: string; stamps?: Readonly<Record<string, string>> }>;
}

/** Which shards a build re-indexes and what its overlay holds. */
export interface OverlayDecision {
  /** Names of the shards to index: no usable home, or folded. */
  reindex: Set<string>;
  /** URL paths of the pages the overlay indexes, sorted. */
  pages: string[];
  /** URL paths of pages a kept home shard still holds but the site no longer has, sorted. */
  deleted: string[];
}

/** Options of {@link decideOverlay}. */
export interface OverlayOptions {
  basePath: string;
  perShard?: number;
  /** URLs the overlay may cover; 0 turns it off (every changed shard is re-indexed). Default {@link OVERLAY_LIMIT}. */
  limit?: number;
  /** Shard count; default the one `current.size` pages get (`shardCount`). */
  count?: number;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Decides, from the site's pages (URL path → stamp; `undefined` when not known yet, as for a page
 * still to compile, which counts as changed) and the previous build's shards, which shards to
 * re-index and which pages the overlay holds. A shard without a usable home (a cold build, a new
 * shard count or base path, a manifest from before stamps) is indexed.
 */
export function decideOverlay(current: ReadonlyMap<string, string | undefined>, previous: HomeShards | undefined, opts: OverlayOptions): OverlayDecision {
  const count = opts.count ?? shardCount(current.size, opts.perShard);
  const limit = Math.max(0, opts.limit ?? OVERLAY_LIMIT);
  const homes = new Map(previous && previous.basePath === opts.basePath ? previous.shards.flatMap((s) => (s.stamps ? [[s.name, s.stamps] as const] : [])) : []);
  // Pages by shard index (named once per shard, not once per page: this runs twice per build).
  const byShard: string[][] = [];
  for (const urlPath of current.keys()) (byShard[shardOf(urlPath, count)] ??= []).push(urlPath);
  const members = new Map<string, string[]>();
  for (const [i, urlPaths] of byShard.entries()) if (urlPaths) members.set(`${count}-${i}`, urlPaths);
  const reindex = new Set<string>();
  // Per kept shard: the pages it holds stale or lacks, and the pages it holds that are gone.
  const covered = new Map<string, { pages: string[]; deleted: string[] }>();
  for (const [name, urlPaths] of members) {
    const home = homes.get(name);
    if (!home) { reindex.add(name); continue; }
    let held = 0;
    const pages = urlPaths.filter((urlPath) => {
      if (Object.hasOwn(home, urlPath)) held++;
      const stamp = current.get(urlPath);
      return stamp === undefined || home[urlPath] !== stamp;
    });
    // Pages the shard holds that the site no longer has: looked for only when some are.
    const deleted = held === keyCount(home) ? [] : Object.keys(home).filter((urlPath) => !current.has(urlPath));
    if (pages.length + deleted.length > 0) covered.set(name, { pages, deleted });
  }
  let size = [...covered.values()].reduce((n, c) => n + c.pages.length + c.deleted.length, 0);
  // Fold: the shards covering the most URLs first (ties by name, so the choice is the same on every machine).
  const largest = [...covered].sort(([a, x], [b, y]) => (y.pages.length + y.deleted.length) - (x.pages.length + x.deleted.length) || byText(a, b));
  for (const [name, c] of largest) {
    if (size <= limit) break;
    reindex.add(name);
    covered.delete(name);
    size -= c.pages.length + c.deleted.length;
  }
  const kept = [...covered.values()];
  return { reindex, pages: kept.flatMap((c) => c.pages).sort(byText), deleted: kept.flatMap((c) => c.deleted).sort(byText) };
}

/** Keys of a home shard's stamps, counted once per object (a kept builder's parsed manifest is reused while unchanged). */
const keyCounts = new WeakMap<object, number>();
function keyCount(stamps: Readonly<Record<string, string>>): number {
  let n = keyCounts.get(stamps);
  if (n === undefined) keyCounts.set(stamps, n = Object.keys(stamps).length);
  return n;
}

/**
 * Fingerprint of an overlay: its pages with their stamps and its deleted URLs, and the base path
 * result URLs carry. The same overlay keeps its bundle.
 */
export function overlayFingerprint(pages: ReadonlyArray<{ urlPath: string; stamp: string }>, deleted: readonly string[], basePath: string): string {
  const hash = createHash('sha256').update('overlay\0').update(basePath).update('\0');
  for (const page of pages) hash.update(page.urlPath).update('\0').update(page.stamp).update('\0');
  hash.update('deleted\0');
  for (const urlPath of deleted) hash.update(urlPath).update('\0');
  return hash.digest('hex');
}

/** Content of `_pagefind/overlay.json`, what the browser reads before searching. */
export interface OverlayList {
  version: 1;
  /** The overlay's bundle, relative to this file (`overlay-<fingerprint>/`); absent when it indexes no page. */
  base?: string;
  /** Pagefind ids (fragment names) of the overlay's pages: the results to keep for covered URLs. */
  ids: string[];
  /** Result URLs (base path included) the overlay covers: its pages' and the deleted pages'. Home results for them are dropped. */
  urls: string[];
}

/** The browser's list for an overlay whose bundle files are `files` (keys relative to the docs base). */
export function overlayList(base: string | undefined, files: readonly string[], covered: readonly string[], basePath: string): OverlayList {
  const ids = files.flatMap((key) => /\/fragment\/([^/]+)\.pf_fragment$/.exec(key)?.[1] ?? []).sort(byText);
  return { version: 1, ...(base ? { base: base.slice('/_pagefind/'.length) } : {}), ids, urls: covered.map((urlPath) => basePath + urlPath) };
}

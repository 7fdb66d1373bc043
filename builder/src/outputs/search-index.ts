/**
 * The sharded search index of a site (see search-shards.ts for why it is sharded) and its
 * overlay (see search-overlay.ts). Given the previous build's `_pagefind/shards.json`, a build
 * whose changed pages are few indexes only them, into the overlay, and keeps every shard;
 * otherwise the shards holding the most changes are re-indexed. Kept shards are listed as kept
 * so the pipeline leaves their objects in place.
 */
import type { SearchEntry, SearchFilters, SearchPage } from './search-shards.ts';
import { planShards, searchHash, shardBase, shardCount, shardOf } from './search-shards.ts';
import { buildPagefindShard, type PagefindShard } from './pagefind-shard.ts';
import { decideOverlay, OVERLAY_LIST_KEY, OVERLAY_NAME, overlayBase, overlayFingerprint, overlayList, pageStamp, servedWhenMerged } from './search-overlay.ts';

/** Key of the shard manifest, published with the site and read back by the next build. */
export const SEARCH_MANIFEST_KEY = '_pagefind/shards.json';

/** One shard as the manifest records it. */
export interface ShardEntry {
  name: string;
  /** Site path of the bundle, e.g. `/_pagefind/4-1/` (the shell prefixes `basePath`). */
  base: string;
  fingerprint: string;
  pages: number;
  /** Keys of the bundle's files, relative to the docs base. */
  files: string[];
  /** URL path → stamp (`pageStamp`) of each page as this bundle indexed it; absent in manifests from before the overlay. */
  stamps?: Record<string, string>;
}

/** The overlay as the manifest records it. */
export interface OverlayEntry {
  /** Site path of its bundle; absent when it covers deleted pages only. */
  base?: string;
  fingerprint: string;
  /** URL paths of the pages it indexes, and of the deleted pages it hides. */
  pages: string[];
  deleted: string[];
  /** Keys of its bundle's files, relative to the docs base. */
  files: string[];
}

/** Content of `_pagefind/shards.json`. */
export interface SearchManifest {
  version: 1;
  /** Docs base path the bundles' result URLs carry; absent in manifests from before the overlay. */
  basePath?: string;
  /** Bases of the home shards. */
  bases: string[];
  shards: ShardEntry[];
  overlay?: OverlayEntry;
}
/** What a search build returns. */
export interface SearchIndexResult {
  /** Files to publish: the re-indexed shards' bundles, the overlay's, its list and the manifest. */
  files: Map<string, Buffer | string>;
  manifest: SearchManifest;
  /** Names of the shards indexed by this build (`overlay` when the overlay was indexed). */
  rebuilt: string[];
  /** Pages Pagefind indexed in this build (shards and overlay). */
  indexed: number;
  /** Keys of unchanged shards' files, already published, to keep. */
  kept: string[];
}

/** A shard whose index was opened early with some of its unchanged pages (`urlPaths`). */
export interface StartedShard {
  shard: Promise<PagefindShard>;
  urlPaths: ReadonlySet<string>;
  /**
   * The bundle, when every page the shard was opened for was sent: written while other pages
   * still compile, and read when published (it may wait on disk meanwhile).
   */
  files?: Promise<() => Map<string, Buffer>>;
}

/** Options of {@link buildSearchIndex}. */
export interface SearchIndexOptions {
  /** Docs base path, part of result URLs. Default `''`. */
  basePath?: string;
  /** The previous build's manifest; absent or unreadable means index every shard. */
  previous?: SearchManifest;
  /** Pages per shard before the shard count doubles. Default 400. */
  perShard?: number;
  /** Shards indexed at once. Default 2. */
  concurrency?: number;
  /**
   * Loads the pages given as `SearchEntry` (hash only) when their shard must be re-indexed,
   * in the order asked. Required when any page is a `SearchEntry`.
   */
  load?(urlPaths: string[]): Promise<SearchPage[]>;
  /**
   * Shard name → an index already holding some of its pages (opened while changed pages
   * compile): when that shard must be re-indexed and still holds those pages, only the rest
   * are added. Unused ones are discarded. The caller guarantees the early pages are unchanged.
   */
  started?: ReadonlyMap<string, StartedShard>;
  /** Pagefind filters of each page (its language and version); the early shards must use the same. */
  filters?: SearchFilters;
  /** URLs the overlay may cover before shards are re-indexed; 0 turns it off. Default `OVERLAY_LIMIT` (32). */
  overlayLimit?: number;
}

/**
 * `PageShellInput.searchBase` (`<meta name="folio-search">`), comma-separated: the home shards'
 * bases, then the overlay's list (`/_pagefind/overlay.json`), which the browser reads to merge the
 * overlay. The list's key never changes, so an edit that only changes the overlay re-renders no shell.
 */
export function searchBaseOf(manifest: SearchManifest): string {
  return [...manifest.bases, `/${OVERLAY_LIST_KEY}`].join(',');
}

/**
 * The `searchBase` a build of `pages` publishes, known before indexing (shells are rendered
 * while Pagefind runs): the bases of the non-empty shards and the overlay's list.
 */
export function plannedSearchBase(pages: readonly (SearchPage | SearchEntry)[], _basePath = '', perShard?: number): string {
  // The shards `planShards` would make, by name only: neither sorted nor fingerprinted (a
  // sha256 over every page, of which an edit needs none here); `basePath` is in fingerprints only.
  const count = shardCount(pages.length, perShard);
  const used = new Set<number>();
  for (const page of pages) used.add(shardOf(page.urlPath, count));
  const names = Array.from({ length: count }, (_, index) => index).filter((index) => used.has(index)).map((index) => shardBase(`${count}-${index}`));
  return [...names, `/${OVERLAY_LIST_KEY}`].join(',');
}

/**
 * Reads a manifest published by an earlier build; undefined when missing or not one. The same
 * text as last time gives the same (frozen) manifest: a long-lived builder reads back, build after
 * build, the manifest it wrote, whose 10,000 stamps need not be parsed again, and whose shards'
 * key counts are then remembered by object (search-overlay.ts).
 */
export function parseSearchManifest(text: string | undefined): SearchManifest | undefined {
  if (!text) return undefined;
  if (lastParsed?.text === text) return lastParsed.value;
  let value: SearchManifest | undefined;
  try {
    const parsed = JSON.parse(text) as SearchManifest;
    value = parsed?.version === 1 && Array.isArray(parsed.shards) ? parsed : undefined;
  } catch {
    value = undefined;
  }
  if (value) {
    for (const shard of value.shards) Object.freeze(Object.freeze(shard).stamps);
    Object.freeze(Object.freeze(value).shards);
  }
  lastParsed = { text, value };
  return value;
}

let lastParsed: { text: string; value: SearchManifest | undefined } | undefined;

/** Closes early-opened shards (a no-op for those already written). */
export async function discardStarted(started: ReadonlyMap<string, StartedShard> | undefined): Promise<void> {
  for (const { shard } of started?.values() ?? []) await shard.then((s) => s.discard(), () => undefined);
}

/** The shard's pages with their bodies, loading those given by hash only. */
async function withBodies(pages: readonly (SearchPage | SearchEntry)[], load: SearchIndexOptions['load']): Promise<SearchPage[]> {
  const missing = pages.filter((page) => !('bodyHtml' in page)).map((page) => page.urlPath);
  if (missing.length === 0) return pages as SearchPage[];
  if (!load) throw new TypeError('buildSearchIndex: pages without a body need options.load');
  const loaded = new Map((await load(missing)).map((page) => [page.urlPath, page]));
  return pages.map((page) => ('bodyHtml' in page ? page : loaded.get(page.urlPath)!));
}

/**
 * The bundle of `pages` (sorted by URL path): the early-opened index's when it holds exactly
 * them, or completed with the rest when it holds some of them, else indexed now.
 */
async function bundleOf(pages: readonly (SearchPage | SearchEntry)[], early: StartedShard | undefined, options: SearchIndexOptions, basePath: string): Promise<Map<string, Buffer>> {
  const paths = new Set(pages.map((page) => page.urlPath));
  if (early?.files && early.urlPaths.size === paths.size && [...paths].every((urlPath) => early.urlPaths.has(urlPath))) return (await early.files)();
  if (early && !early.files && [...early.urlPaths].every((urlPath) => paths.has(urlPath))) {
    const shard = await early.shard;
    await shard.add(await withBodies(pages.filter((page) => !early.urlPaths.has(page.urlPath)), options.load));
    return shard.files();
  }
  return buildPagefindShard(await withBodies(pages, options.load), basePath, options.filters);
}

/**
 * Indexes the site's pages: the overlay when few changed, else the shards holding the most
 * changes (all of them on a cold build). An unchanged site writes the same bytes.
 */
export async function buildSearchIndex(pages: readonly (SearchPage | SearchEntry)[], options: SearchIndexOptions = {}): Promise<SearchIndexResult> {
  const basePath = options.basePath ?? '';
  const previousShards = new Map((options.previous?.shards ?? []).map((shard) => [shard.name, shard]));
  const plans = planShards(pages, basePath, options.perShard, options.filters).filter((plan) => plan.pages.length > 0);
  const stamps = new Map(pages.map((page) => [page.urlPath, pageStamp(page.urlPath, 'searchHash' in page ? page.searchHash : searchHash(page), options.filters)]));
  const decision = decideOverlay(stamps, options.previous, { basePath, perShard: options.perShard, limit: options.overlayLimit });
  const files = new Map<string, Buffer | string>();
  const entries: ShardEntry[] = new Array(plans.length);
  const rebuilt: string[] = [];
  const kept: string[] = [];
  let indexed = 0;
  const stampsOf = (plan: (typeof plans)[number]) => Object.fromEntries(plan.pages.map((page) => [page.urlPath, stamps.get(page.urlPath)!]));
  const emit = (base: string, bundle: Map<string, Buffer>, keep: (file: string) => boolean = () => true) => {
    const keys: string[] = [];
    for (const [file, bytes] of bundle) {
      if (!keep(file)) continue;
      keys.push(`${base.slice(1)}${file}`);
      files.set(`${base.slice(1)}${file}`, bytes);
    }
    return keys.sort();
  };
  const shardTask = (i: number) => async () => {
    const plan = plans[i];
    const old = previousShards.get(plan.name);
    // Kept: the shard is current, or its changes are in the overlay. (A manifest from before
    // stamps lists none: an unchanged shard is kept by its fingerprint and gets them now.)
    if (old && (!decision.reindex.has(plan.name) || old.fingerprint === plan.fingerprint)) {
      entries[i] = old.stamps ? old : { ...old, stamps: stampsOf(plan) };
      kept.push(...old.files);
      return;
    }
    const base = shardBase(plan.name);
    const bundle = await bundleOf(plan.pages, options.started?.get(plan.name), options, basePath);
    entries[i] = { name: plan.name, base, fingerprint: plan.fingerprint, pages: plan.pages.length, files: emit(base, bundle), stamps: stampsOf(plan) };
    rebuilt.push(plan.name);
    indexed += plan.pages.length;
  };
  let overlay: OverlayEntry | undefined;
  const overlayTask = async () => {
    if (decision.pages.length + decision.deleted.length === 0) return;
    const fingerprint = overlayFingerprint(decision.pages.map((urlPath) => ({ urlPath, stamp: stamps.get(urlPath)! })), decision.deleted, basePath);
    const old = options.previous?.overlay;
    if (old?.fingerprint === fingerprint) {
      overlay = old;
      kept.push(...old.files);
      return;
    }
    overlay = { fingerprint, pages: decision.pages, deleted: decision.deleted, files: [] };
    if (decision.pages.length === 0) return;
    const byPath = new Map(pages.map((page) => [page.urlPath, page]));
    const base = overlayBase(fingerprint);
    const bundle = await bundleOf(decision.pages.map((urlPath) => byPath.get(urlPath)!), options.started?.get(OVERLAY_NAME), options, basePath);
    overlay = { ...overlay, base, files: emit(base, bundle, servedWhenMerged) };
    rebuilt.push(OVERLAY_NAME);
    indexed += decision.pages.length;
  };
  // The overlay first: on an edit it is the only index written.
  const tasks = [overlayTask, ...plans.map((_, i) => shardTask(i))];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  } finally {
    await discardStarted(options.started);
  }
  const manifest: SearchManifest = { version: 1, basePath, bases: entries.map((entry) => entry.base), shards: entries, ...(overlay ? { overlay } : {}) };
  const covered = overlay ? [...overlay.pages, ...overlay.deleted].sort() : [];
  files.set(OVERLAY_LIST_KEY, JSON.stringify(overlayList(overlay?.base, overlay?.files ?? [], covered, basePath)) + '\n');
  files.set(SEARCH_MANIFEST_KEY, JSON.stringify(manifest) + '\n');
  return { files, manifest, rebuilt: rebuilt.sort(), kept, indexed };
}

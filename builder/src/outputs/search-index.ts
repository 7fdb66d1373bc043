/**
 * The sharded search index of a site (see search-shards.ts for why it is sharded). Given the
 * previous build's `_pagefind/shards.json`, only shards whose fingerprint changed are re-indexed;
 * the others are listed as kept so the pipeline leaves their objects in place.
 */
import type { SearchEntry, SearchFilters, SearchPage } from './search-shards.ts';
import { planShards, shardBase } from './search-shards.ts';
import { buildPagefindShard, type PagefindShard } from './pagefind-shard.ts';

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
}

/** Content of `_pagefind/shards.json`. */
export interface SearchManifest { version: 1; bases: string[]; shards: ShardEntry[] }

/** What a search build returns. */
export interface SearchIndexResult {
  /** Files to publish: the re-indexed shards' bundles and the manifest. */
  files: Map<string, Buffer | string>;
  manifest: SearchManifest;
  /** Names of the shards indexed by this build. */
  rebuilt: string[];
  /** Keys of unchanged shards' files, already published, to keep. */
  kept: string[];
}

/** A shard whose index was opened early with some of its unchanged pages (`urlPaths`). */
export interface StartedShard {
  shard: Promise<PagefindShard>;
  urlPaths: ReadonlySet<string>;
  /** The bundle, when every page the shard was opened for was sent: written while other pages still compile. */
  files?: Promise<Map<string, Buffer>>;
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
}

/** `PageShellInput.searchBase`: the bundle bases, comma-separated (`<meta name="folio-search">`). */
export function searchBaseOf(manifest: SearchManifest): string {
  return manifest.bases.join(',');
}

/**
 * The `searchBase` a build of `pages` publishes, known before indexing (shells are rendered
 * while Pagefind runs): the bases of the non-empty shards.
 */
export function plannedSearchBase(pages: readonly (SearchPage | SearchEntry)[], basePath = '', perShard?: number): string {
  return planShards(pages, basePath, perShard).filter((plan) => plan.pages.length > 0).map((plan) => shardBase(plan.name)).join(',');
}

/** Reads a manifest published by an earlier build; undefined when missing or not one. */
export function parseSearchManifest(text: string | undefined): SearchManifest | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as SearchManifest;
    return value?.version === 1 && Array.isArray(value.shards) ? value : undefined;
  } catch {
    return undefined;
  }
}

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

/** Indexes the site's pages into shards, re-indexing only shards whose content changed. */
export async function buildSearchIndex(pages: readonly (SearchPage | SearchEntry)[], options: SearchIndexOptions = {}): Promise<SearchIndexResult> {
  const basePath = options.basePath ?? '';
  const previous = new Map((options.previous?.shards ?? []).map((shard) => [shard.name, shard]));
  const plans = planShards(pages, basePath, options.perShard, options.filters).filter((plan) => plan.pages.length > 0);
  const files = new Map<string, Buffer | string>();
  const entries: ShardEntry[] = new Array(plans.length);
  const rebuilt: string[] = [];
  const kept: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      const plan = plans[i];
      const base = shardBase(plan.name);
      const old = previous.get(plan.name);
      if (old && old.fingerprint === plan.fingerprint) {
        entries[i] = old;
        kept.push(...old.files);
        continue;
      }
      const early = options.started?.get(plan.name);
      const paths = new Set(plan.pages.map((page) => page.urlPath));
      let bundle: Map<string, Buffer>;
      if (early?.files && early.urlPaths.size === paths.size && [...paths].every((urlPath) => early.urlPaths.has(urlPath))) {
        bundle = await early.files;
      } else if (early && !early.files && [...early.urlPaths].every((urlPath) => paths.has(urlPath))) {
        const shard = await early.shard;
        await shard.add(await withBodies(plan.pages.filter((page) => !early.urlPaths.has(page.urlPath)), options.load));
        bundle = await shard.files();
      } else {
        bundle = await buildPagefindShard(await withBodies(plan.pages, options.load), basePath, options.filters);
      }
      const keys = [...bundle.keys()].sort().map((file) => `${base.slice(1)}${file}`);
      for (const [file, bytes] of bundle) files.set(`${base.slice(1)}${file}`, bytes);
      entries[i] = { name: plan.name, base, fingerprint: plan.fingerprint, pages: plan.pages.length, files: keys };
      rebuilt.push(plan.name);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  } finally {
    await discardStarted(options.started);
  }
  const manifest: SearchManifest = { version: 1, bases: entries.map((entry) => entry.base), shards: entries };
  files.set(SEARCH_MANIFEST_KEY, JSON.stringify(manifest) + '\n');
  return { files, manifest, rebuilt: rebuilt.sort(), kept };
}

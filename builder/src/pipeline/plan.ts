/**
 * The plan step: what this build must compile. The previous build's state (manifest, page
 * summaries, search manifest, moves) is read, `docs.json` checked (an invalid file stops the build
 * before anything is published), the pages listed, and each page looked up in the summaries (or,
 * without one, the page cache): a hit is a record ready for every later step, a miss a page to
 * compile. API reference pages are generated here when their document changed.
 */
import { TEMPLATE_VERSION } from '@folio/site-template';
import { documentsPages } from '../api/api-documents.ts';
import type { ApiPagesResult } from '../api/api-pages.ts';
import { navigationDocuments } from '../api/frontmatter-pages.ts';
import { copyCacheKey, createPageCache, pageCacheKey, type PageCache } from '../cache/page-cache.ts';
import { depsHoldAt } from '../cache/page-deps.ts';
import { COMPILER_VERSION, urlPathFor } from '../compile/index.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { searchFiltersOf, type SearchScopes } from '../nav/dimensions.ts';
import { readMoves, type Moves } from '../outputs/page-moves.ts';
import { parseSearchManifest, SEARCH_MANIFEST_KEY, type SearchManifest } from '../outputs/search-index.ts';
import { CACHE_PREFIX, readManifest, type BuildManifest } from '../state/manifest.ts';
import { createPageBodies, type PageBodies, type PageRecord } from '../state/page-bodies.ts';
import { failureHolds, readSummaries, relocate, summarize, summaryHolds, type FailureSummary, type PageSummary, type StoredSummaries } from '../state/page-summaries.ts';
import { prefixStore } from '../store/object-store.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import type { BuildContext } from './context.ts';
import { planSite, type SitePlan } from './site-plan.ts';

/** What the plan step found; the steps after it read it and never change it. */
export interface BuildPlan extends SitePlan {
  snapshot: RepoSnapshot;
  contentRoot: string;
  /** Source paths of the pages, in path order. */
  sources: string[];
  /** What the previous build left. */
  previous: BuildManifest | undefined;
  summaries: StoredSummaries;
  previousSearch: SearchManifest | undefined;
  previousMoves: Moves;
  cache: PageCache;
  bodies: PageBodies;
  /** The page cache key of a page of this commit. */
  keyOf(sourcePath: string): string;
  /** The full page of a record (memory, else the page cache). */
  load(record: PageRecord): Promise<CompiledPage>;
  /** Source path → the record of each page found (cache hits). */
  records: ReadonlyMap<string, PageRecord>;
  /** Page failures known without compiling (reported again, or API reference pages too large), by source path. */
  errors: ReadonlyMap<string, PageFailure>;
  /** Those of the reported failures the next build may reuse (summarized for it). */
  failures: ReadonlyMap<string, FailureSummary>;
  /** Pages to compile, in path order. */
  misses: readonly string[];
  /** The pages to compile first: one per cache key (see `twins`), in path order. */
  unique: readonly string[];
  /** A page with the bytes of another page to compile → that page. */
  twins: ReadonlyMap<string, string>;
  /**
   * Pages stored under a key of their own (`copyCacheKey`): copies whose imports name other files
   * than the copy already stored under their bytes' key. The compile step adds the twins it compiles alone.
   */
  ownKeys: Map<string, string>;
  /** API reference pages (when the configuration names an OpenAPI document). */
  api: ApiPagesResult | undefined;
  apiRecords: PageRecord[];
  /** Each page's search filters (language and version), known from docs.json alone. */
  filters: SearchScopes | undefined;
}

/** Plans the build of `snapshot`. */
export async function plan(ctx: BuildContext, snapshot: RepoSnapshot): Promise<BuildPlan> {
  const { store, opts } = ctx;
  const cache = createPageCache(prefixStore(store, CACHE_PREFIX));
  const bodies = createPageBodies(cache, opts.pageMemory);
  const [previous, summaries, previousSearch, previousMoves] = await Promise.all([
    readManifest(store), readSummaries(store),
    store.get(SEARCH_MANIFEST_KEY).then((b) => parseSearchManifest(b && Buffer.from(b).toString('utf8'))),
    readMoves(store),
  ]);
  const site = await planSite(snapshot, { siteUrl: opts.siteUrl, basePath: opts.basePath ?? '' });
  const { config, layout } = site;
  const contentRoot = config.contentRoot;
  const sources = layout.pages;
  const keyOf = (p: string) => pageCacheKey(snapshot.files.get(p)!, COMPILER_VERSION, TEMPLATE_VERSION, contentRoot);
  const records = new Map<string, PageRecord>();
  const misses: string[] = [];
  const errors = new Map<string, PageFailure>();
  const failures = new Map<string, FailureSummary>();
  // A summary answers without reading the page's cache entry; without one (first build of this
  // version, or a lost summaries object) the entry itself is read. A page that failed with the
  // same source and imports fails the same way: it is reported again, not compiled. The
  // summaries list those failures; only when they are lost (after a publish) are failure entries read.
  // Summaries answer at once ('compile' when the one found no longer holds): only pages without
  // one wait for the page cache, not 10,000 promises queued through the concurrency limit.
  // A summary with imports recorded for a copy of the page at another path (the same bytes in
  // another language's folder: one cache key) is checked against this path's own imports after.
  const elsewhere: [string, string, PageSummary][] = [];
  const fromSummaries = (p: string, key: string): PageRecord | FailureSummary | 'compile' | 'elsewhere' | undefined => {
    const listed = summaries.failures.get(p);
    if (listed && (failureHolds(listed, key, p, snapshot.files) || failureHolds(listed, copyCacheKey(key, p), p, snapshot.files))) return listed;
    const summary = summaries.pages.get(key);
    if (summary && summaryHolds(summary, p, snapshot.files)) return { cacheKey: key, summary: relocate(summary, p, contentRoot) };
    if (summary && summary.sourcePath !== p) { elsewhere.push([p, key, summary]); return 'elsewhere'; }
    return summary ? 'compile' : undefined;
  };
  const fromCache = async (p: string, key: string): Promise<PageRecord | FailureSummary | undefined> => {
    const hit = await cache.get(key, p, snapshot.files);
    if (hit) {
      bodies.remember(key, hit.page, hit.deps);
      return { cacheKey: key, summary: relocate(summarize(hit.page, hit.deps), p, contentRoot) };
    }
    if (summaries.found || !previous) return undefined;
    const failure = await cache.getFailure(key, p, snapshot.files);
    return failure && { ...failure, cacheKey: key };
  };
  const settle = (p: string, found: PageRecord | FailureSummary | undefined) => {
    if (!found) misses.push(p);
    else if ('summary' in found) records.set(p, found);
    else { failures.set(p, found); errors.set(p, found.failure); }
  };
  const unknown: string[] = [];
  for (const p of sources) {
    const found = fromSummaries(p, keyOf(p));
    if (found === undefined) unknown.push(p);
    else if (found !== 'elsewhere') settle(p, found === 'compile' ? undefined : found);
  }
  await Promise.all(unknown.map((p) => ctx.limit(async () => settle(p, await fromCache(p, keyOf(p))))));
  const ownKeys = new Map<string, string>();
  const pageSet = new Set(sources);
  await Promise.all(elsewhere.map(([p, key, summary]) => ctx.limit(async () => {
    if (await depsHoldAt(summary.deps, p, Buffer.from(await snapshot.read(p)).toString('utf8'), snapshot)) {
      settle(p, { cacheKey: key, summary: relocate(summary, p, contentRoot) });
      return;
    }
    // Its imports name other files. While the copy holding the key is still current, this one's
    // result is kept under a key of its own; otherwise it compiles as any page.
    const own = copyCacheKey(key, p);
    const kept = summaries.pages.get(own);
    if (kept && summaryHolds(kept, p, snapshot.files)) settle(p, { cacheKey: own, summary: kept });
    else {
      const holder = summary.sourcePath;
      if (pageSet.has(holder) && keyOf(holder) === key && summaryHolds(summary, holder, snapshot.files)) ownKeys.set(p, own);
      settle(p, undefined);
    }
  })));
  misses.sort();
  // API reference pages: generated from api.openapi and the navigation's openapi (and asyncapi)
  // keys, as Mintlify files name them, only when a document changed.
  const documents = [...new Set([config.openapi, ...navigationDocuments(config.navigation)].filter((d): d is string => !!d))];
  const channels = navigationDocuments(config.navigation, 'asyncapi');
  const api = await documentsPages(documents, {
    snapshot, contentRoot, ...(opts.fetchUrl ? { fetchUrl: opts.fetchUrl } : {}), sources, records,
    cache, state: prefixStore(store, CACHE_PREFIX), summaries: summaries.pages, bodies,
    taken: new Set(sources.map((p) => urlPathFor(p, contentRoot))),
    ...(config.apiSettings ? { settings: config.apiSettings } : {}),
  }, channels);
  // An operation whose page is too large fails as a page: its previous version stays live.
  for (const failure of api?.failures ?? []) errors.set(failure.sourcePath, failure);
  // Files with the same bytes (a page kept unchanged in another version's or language's folder)
  // have one cache key: the first compiles, the others ("twins") take its result, as a later
  // build would find it in the cache. Adding a version of copies compiles only what differs.
  const firstOfKey = new Map<string, string>();
  const twins = new Map<string, string>();
  const unique = misses.filter((p) => {
    const first = firstOfKey.get(keyOf(p));
    if (first === undefined) firstOfKey.set(keyOf(p), p);
    else twins.set(p, first);
    return first === undefined;
  });
  // Languages and versions are known from docs.json alone: search filters each page by them.
  const filters = searchFiltersOf(config.navigation, sources.map((p) => ({ sourcePath: p, urlPath: urlPathFor(p, contentRoot) })), contentRoot, config.seo?.indexing === 'all');
  return {
    ...site, snapshot, contentRoot, sources, previous, summaries, previousSearch, previousMoves, cache, bodies, keyOf,
    load: (record) => bodies.load(record, contentRoot),
    records, errors, failures, misses, unique, twins, ownKeys, api, apiRecords: api?.records ?? [], filters,
  };
}

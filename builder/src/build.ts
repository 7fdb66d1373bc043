import { sha256 } from './sha256.ts';
import fs from 'node:fs';
import path from 'node:path';
import { TEMPLATE_VERSION } from '@folio/site-template';
import { apiPages } from './api/api-pages.ts';
import { specSource, type FetchUrl } from './api/spec-source.ts';
import { createPageCache, isCacheableFailure, pageCacheKey, type CacheEntry } from './cache/page-cache.ts';
import { pageDeps } from './cache/page-deps.ts';
import { COMPILER_VERSION, createCompiler, isPageFailure, urlPathFor, type Compiler, type PageLimits } from './compile/index.ts';
import { navigationOpenapi } from './config/navigation-schema.ts';
import type { ResolvedConfig } from './config/parse-config.ts';
import { listedPages } from './config/navigation-files.ts';
import { readRepoConfig } from './config/read-repo-config.ts';
import { isGitRepository, openDirSnapshot, openGitSnapshot, type RepoSnapshot } from './git/repo-snapshot.ts';
import { detectRenames } from './git/detect-renames.ts';
import { checkCpu, checkRepository, DEFAULT_LIMITS, startDeadline, type BuildLimits } from './limits/build-limits.ts';
import { sameJson } from './cache/bucketed-map.ts';
import { CACHE_PREFIX, manifestFiles, manifestPage, readManifest, writeManifest, type BuildManifest, type ManifestPage } from './state/manifest.ts';
import { LinkChecker } from './links/link-check.ts';
import { checkSiteLinks } from './links/site-links.ts';
import { publishIslands } from './outputs/island-bundle.ts';
import { rememberedSiteNav } from './nav/remembered-nav.ts';
import { collectEvery } from './collect-garbage.ts';
import { searchFiltersOf, versionLabel } from './nav/dimensions.ts';
import { startChangedShards } from './early-search.ts';
import { DeferredShards } from './outputs/deferred-shards.ts';
import { buildSearchIndex, discardStarted, parseSearchManifest, plannedSearchBase, SEARCH_MANIFEST_KEY, type StartedShard } from './outputs/search-index.ts';
import { nextMoves, readMoves, writeMoves } from './outputs/page-moves.ts';
import { pageExportKeys, pageExports, PAGE_EXPORTS_VERSION, siteWideExports, siteWideKeys, type SiteWidePage } from './outputs/site-exports.ts';
import { contentKey, llmsFullIndex, recallMarkdown } from './outputs/llms-full-recall.ts';
import type { LlmsSegment } from './outputs/llms-txt.ts';
import { classesOfPages, utilitiesSheet } from './outputs/tailwind-css.ts';
import { buildCustomCss, customCssFiles, customCssKey } from './css/custom-css.ts';
import { HEADERS_KEY, siteHeaders } from './outputs/site-headers.ts';
import type { ShellContext } from './outputs/page-shells.ts';
import { createPageBodies, type PageMemory, type PageRecord } from './state/page-bodies.ts';
import { PublishedMemory } from './outputs/published-memory.ts';
import { failureHolds, readSummaries, relocate, summarize, summaryHolds, writeSummaries, type FailureSummary, type PageSummary } from './state/page-summaries.ts';
import { createPublisher } from './publish.ts';
import { IGNORE_FILE, repoLayout } from './repo-layout.ts';
import { publishPublicFiles, renderSite } from './render-site.ts';
import { limitConcurrency } from './store/limit-concurrency.ts';
import { Spool } from './state/spool.ts';
import { prefixStore, type ObjectStore } from './store/object-store.ts';
import type { BuildResult, CompiledPage, PageFailure, StepTimings } from './types.ts';
import { storedTooLarge } from './sandbox/page-output.ts';

/** Where the repository comes from. */
export type BuildSource =
  /** A remote over HTTP(S); objects kept in `workDir` (reuse it across builds to fetch less). */
  | { kind: 'remote'; url: string; workDir: string; branch?: string; token?: string }
  /** A local folder: a Git repository (read at `ref`, default `HEAD`) or a plain folder of files. */
  | { kind: 'dir'; dir: string; ref?: string }
  /** Files already read, e.g. a working tree kept up to date by the dev server. */
  | { kind: 'snapshot'; snapshot: RepoSnapshot };

/** Options of `build`. */
export interface BuildOptions {
  source: BuildSource;
  /** The site's store (already scoped to the site, e.g. with `prefixStore(s3, 'sites/<id>/')`). */
  store: ObjectStore;
  /** Absolute origin of the site, e.g. `https://acme.docs.example`. */
  siteUrl: string;
  /** Docs base path; default `''` (the root). */
  basePath?: string;
  /** Overrides of `DEFAULT_LIMITS`. */
  limits?: Partial<BuildLimits>;
  /** CPU time and memory each page may use in its sandbox (when the build makes its compiler). */
  pageLimits?: Partial<PageLimits>;
  /** A compiler to reuse across builds; default: one made (and closed) for this build. */
  compiler?: Compiler;
  /** Compiled pages kept in memory, reusable across builds (a long-lived worker); default: one for this build. */
  pageMemory?: PageMemory;
  /** Year for `{year}` in the copyright; default the current UTC year. */
  year?: number;
  /**
   * Whether the plan includes custom CSS (css/custom-css.ts): when true the repository's
   * stylesheets are built and linked; when false the stylesheet of the last build that had it
   * keeps being linked unchanged (a downgrade keeps it rendering, frozen) and repository changes
   * to it are not applied. Default false.
   */
  customCss?: boolean;
  /** Pages per search shard before the shard count doubles; default 400 (`MAX_PAGES_PER_SHARD`). */
  searchPerShard?: number;
  /**
   * URLs the search overlay may cover (changed and deleted pages indexed apart from their shards,
   * see outputs/search-overlay.ts) before shards are re-indexed; 0 re-indexes every changed shard.
   * Default 32 (`OVERLAY_LIMIT`).
   */
  searchOverlay?: number;
  /**
   * Called once the pages are compiled and links checked, before anything is uploaded, with the
   * pages whose published version changes (new, edited, moved) and the ones removed. The worker
   * reports them to the pages API; reporting before the publish means a build that dies in
   * between re-reports them, and a report refused (a `user` error) leaves the live site untouched.
   */
  onPages?(changes: PageChanges): Promise<void>;
  /**
   * Remembers link-check results between builds of one site (the dev server keeps one), so a
   * build re-checks only links that can have changed; default: every link is checked.
   */
  linkChecker?: LinkChecker;
  /**
   * Downloads `api.openapi` when it is a URL; default none (such a build fails with
   * `invalid_openapi`). The worker's goes through the control plane's address-checking fetcher.
   */
  fetchUrl?: FetchUrl;
  /** Called as each step finishes (`clone`, `plan`, `compile`, …), for progress logs. */
  onStep?(step: keyof StepTimings): void;
  /** Called after each compile batch with the pages compiled so far and the number to compile. */
  onCompiled?(done: number, total: number): void;
  /** Pages (compiled, shells rendered, exports made) between two full garbage collections of this process (default {@link COLLECT_EVERY_PAGES}). */
  collectEveryPages?: number;
  /** Pages to compile from which search shards are indexed after the compile step (default {@link SEARCH_AFTER_COMPILE_FROM}). */
  searchAfterCompileFrom?: number;
  /**
   * Called with what every page shell of this build shares (configuration, navigation, assets,
   * search bases), so the dev server can render an edited page's shell before the next build.
   */
  onShell?(shell: ShellContext, config: ResolvedConfig): void;
}

/** A page whose published version is new. `version`: its content version label (`latest` for the default version and for sites without versions). */
export interface PageUpsert { page: CompiledPage; source: string; version: string }

/** Pages a build changes, relative to the previously published site. */
export interface PageChanges {
  /**
   * The new and changed pages, `size` at a time (default {@link UPSERT_BATCH}), each batch loaded
   * (from the page memory, else the page cache) when asked for. Loaded all at once, a cold
   * 10,000-page build held every page and its source together, ~450 MB more in the worker's build
   * process at the end of the build.
   */
  upserted(size?: number): AsyncGenerator<PageUpsert[]>;
  removed: Array<{ sourcePath: string; urlPath: string }>;
}

/** Pages per batch of {@link PageChanges.upserted} by default (the pages API's batch). */
export const UPSERT_BATCH = 200;

const STEPS = ['clone', 'plan', 'compile', 'render', 'exports', 'index', 'publish', 'total'] as const;

/** Pages per compile batch: large enough to keep both cores busy, small enough to bound memory. */
const BATCH = 200;
/** Pages compiled, rendered or exported between two full garbage collections of the build's process (see where it is used). */
export const COLLECT_EVERY_PAGES = 500;
/**
 * Pages to compile from which Pagefind indexes only after the compile step (deferred-shards.ts):
 * the compile step of such a build is long enough to be its memory's peak, and indexing at its
 * end overlaps the shells' render. Smaller builds (edits, most sites) index as pages compile,
 * which ends them sooner.
 */
export const SEARCH_AFTER_COMPILE_FROM = 2_000;

/**
 * Builds the site of one commit and publishes it incrementally: only pages whose source (or an
 * imported snippet) changed are compiled, results are cached in the store, site-wide outputs
 * (exports, feeds, sitemap, search shards) are derived from the cached per-page summaries, only
 * changed objects are uploaded, removed ones deleted afterwards, and the manifest written last.
 *
 * Timings: `render` covers shells, the 404 page, client assets and `public/`; `exports` the
 * Markdown exports, LLM files, feeds, sitemap, robots and redirects; `index` the search shards,
 * which are indexed (by Pagefind's own process) while shells render, so `index` overlaps them.
 *
 * @throws BuilderError `kind: 'user'` for an invalid docs.json, an unsafe path or an exceeded
 *   limit (nothing is published: the previous site stays live); `kind: 'app'` otherwise.
 */
export async function build(opts: BuildOptions): Promise<BuildResult> {
  const started = new Map<string, StartedShard>();
  // On disk until wanted (see spool.ts): compiled pages' Markdown, early search bundles, and on a
  // large build the search documents waiting for the compile step's end (deferred-shards.ts).
  const spools = { markdown: new Spool(), search: new Spool(), documents: new Spool() };
  try {
    return await buildSite(opts, started, spools);
  } finally {
    for (const spool of Object.values(spools)) spool.close();
    await discardStarted(started); // a no-op for shards written; frees Pagefind's memory after a failure
  }
}

async function buildSite(opts: BuildOptions, started: Map<string, StartedShard>, spools: Record<'markdown' | 'search' | 'documents', Spool>): Promise<BuildResult> {
  const limits: BuildLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const deadline = startDeadline(limits);
  const timings: StepTimings = {};
  const start = performance.now();
  let mark = start;
  const lap = (step: keyof StepTimings) => { const now = performance.now(); timings[step] = Math.round(now - mark); mark = now; opts.onStep?.(step); deadline.check(); };

  const snapshot = await openSource(opts.source);
  checkRepository(snapshot.sizeBytes, snapshot.files.size, limits);
  lap('clone');

  const store = opts.store;
  const cache = createPageCache(prefixStore(store, CACHE_PREFIX));
  const bodies = createPageBodies(cache, opts.pageMemory);
  const [previous, summaries, previousSearch, previousMoves] = await Promise.all([
    readManifest(store), readSummaries(store),
    store.get(SEARCH_MANIFEST_KEY).then((b) => parseSearchManifest(b && Buffer.from(b).toString('utf8'))),
    readMoves(store),
  ]);
  const { bytes: configBytes, loaded } = await readRepoConfig(snapshot, { siteUrl: opts.siteUrl, basePath: opts.basePath ?? '' });
  const readText = async (p: string) => (snapshot.files.has(p) ? Buffer.from(await snapshot.read(p)).toString('utf8') : undefined);
  const config = loaded.config;
  const contentRoot = config.contentRoot;
  const layout = repoLayout(snapshot.files.keys(), contentRoot, await readText(IGNORE_FILE), listedPages(config.navigation));
  const sources = layout.pages;
  const keyOf = (p: string) => pageCacheKey(snapshot.files.get(p)!, COMPILER_VERSION, TEMPLATE_VERSION, contentRoot);
  const limit = limitConcurrency(32);
  const records = new Map<string, PageRecord>();
  const misses: string[] = [];
  // Every page failure of this build by source path, and those that may be reused (summarized for the next build).
  const errors = new Map<string, PageFailure>();
  const failures = new Map<string, FailureSummary>();
  // A summary answers without reading the page's cache entry; without one (first build of this
  // version, or a lost summaries object) the entry itself is read. A page that failed with the
  // same source and imports fails the same way: it is reported again, not compiled. The
  // summaries list those failures; only when they are lost (after a publish) are failure entries read.
  // Summaries answer at once ('compile' when the one found no longer holds): only pages without
  // one wait for the page cache, not 10,000 promises queued through the concurrency limit.
  const fromSummaries = (p: string, key: string): PageRecord | FailureSummary | 'compile' | undefined => {
    const listed = summaries.failures.get(p);
    if (listed && failureHolds(listed, key, p, snapshot.files)) return listed;
    const summary = summaries.pages.get(key);
    if (summary) return summaryHolds(summary, p, snapshot.files) ? { cacheKey: key, summary: relocate(summary, p, contentRoot) } : 'compile';
    return undefined;
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
    else settle(p, found === 'compile' ? undefined : found);
  }
  await Promise.all(unknown.map((p) => limit(async () => settle(p, await fromCache(p, keyOf(p))))));
  misses.sort();
  // API reference pages: generated from api.openapi (else the first openapi key of the
  // navigation, as Mintlify files name it) only when the document changed.
  const openapi = config.openapi ?? (config.navigation ? navigationOpenapi(config.navigation) : undefined);
  const api = openapi === undefined ? undefined : await apiPages({
    source: await specSource(openapi, snapshot, opts.fetchUrl), cache, state: prefixStore(store, CACHE_PREFIX),
    summaries: summaries.pages, bodies, taken: new Set(sources.map((p) => urlPathFor(p, contentRoot))),
  });
  const apiRecords = api?.records ?? [];
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
  let compiledCount: number;
  const load = (record: PageRecord) => bodies.load(record, contentRoot);
  // Languages and versions are known from docs.json alone: search filters each page by them.
  const filters = searchFiltersOf(config.navigation, sources.map((p) => ({ sourcePath: p, urlPath: urlPathFor(p, contentRoot) })), contentRoot);
  const deferred = misses.length >= (opts.searchAfterCompileFrom ?? SEARCH_AFTER_COMPILE_FROM) ? new DeferredShards(spools.documents) : undefined;
  const early = startChangedShards({
    open: deferred?.open, changed: misses, unchanged: [...records.values(), ...apiRecords], pageCount: sources.length + apiRecords.length, contentRoot,
    basePath: config.basePath, perShard: opts.searchPerShard, load, filters, previous: previousSearch, overlayLimit: opts.searchOverlay, spool: spools.search,
  });
  for (const [name, shard] of early.started) started.set(name, shard);
  // Shard after shard (each in path order): a shard's search bundle is written as soon as its
  // last page is compiled, while the next shards compile, not all of them after the last page.
  unique.sort((a, b) => early.rank(a) - early.rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  lap('plan');

  const compiler = opts.compiler ?? (misses.length > 0 ? await createCompiler({ limits: opts.pageLimits }) : undefined);
  const cpuAtStart = compiler?.cpuMs?.() ?? 0;
  const readFile = async (repoPath: string) => (snapshot.files.has(repoPath) ? Buffer.from(await snapshot.read(repoPath)).toString('utf8') : undefined);
  const startBatch = (list: string[], i: number) => {
    const batch = list.slice(i, i + BATCH);
    const texts = Promise.all(batch.map(async (p) => Buffer.from(await snapshot.read(p)).toString('utf8')));
    const results = texts.then((t) => compiler!.compile(batch.map((p, j) => ({ sourcePath: p, source: t[j], contentRoot })), { readFile }));
    // Awaited in turn; a failure while an earlier batch is processed must not go unhandled meanwhile.
    texts.catch(() => undefined);
    results.catch(() => undefined);
    return { batch, texts, results };
  };
  let compiledSoFar = 0;
  // Pages compiled, shells rendered and exports made, counted towards the next full collection.
  const collect = collectEvery(opts.collectEveryPages ?? COLLECT_EVERY_PAGES);
  const compileAll = async (list: string[]) => {
    // The next batch is queued before this one's results are stored, so the compile workers
    // never wait for the main thread's cache writes.
    let current = list.length > 0 ? startBatch(list, 0) : undefined;
    for (let i = 0; current; i += BATCH) {
      const upcoming = i + BATCH < list.length ? startBatch(list, i + BATCH) : undefined;
      const { batch } = current;
      const texts = await current.texts;
      // A page too large to store in the pages API fails as a page (its previous version stays live).
      const compiled = (await current.results).map((res, j): CompiledPage | PageFailure => {
        const tooLarge = isPageFailure(res) ? undefined : storedTooLarge(texts[j], res);
        return tooLarge ? { sourcePath: batch[j], message: tooLarge } : res;
      });
      current = upcoming;
      early.add(compiled.filter((res): res is CompiledPage => !isPageFailure(res)));
      await Promise.all(compiled.map((res, j) => limit(async () => {
        const p = batch[j];
        const key = keyOf(p);
        if (isPageFailure(res)) {
          errors.set(p, res);
          // A limit's failure depends on the machine's load: the page is compiled again next time.
          if (!isCacheableFailure(res)) return;
          const entry = { failure: res, deps: await pageDeps(p, texts[j], snapshot, { missing: true }) };
          await cache.putFailure(key, entry);
          failures.set(p, { ...entry, cacheKey: key });
          return;
        }
        const entry: CacheEntry = { page: res, deps: await pageDeps(p, texts[j], snapshot) };
        await cache.put(key, entry);
        bodies.remember(key, res, entry.deps);
        const record = { cacheKey: key, summary: summarize(res, entry.deps) };
        records.set(p, record);
        // Kept for llms-full.txt (a page memory smaller than the site would otherwise read it
        // back), on disk: held in memory, every page's Markdown would add to the compile step's peak.
        spools.markdown.add(contentKey(record), res.markdown.trim());
      })));
      compiledSoFar += batch.length;
      // While the sandboxes compile, this process mostly waits on them, and its heap grows with
      // what they send (V8 grows its limit well past what stays alive): a full collection every
      // so many pages keeps it near what it holds. A 10,000-page build: this process 269 MB
      // at the compile step's end instead of 334-377, the whole tree's peak 992 MB instead of
      // 1,021-1,081, for ~0.8 s of this process's CPU in all (builder README, "Memory").
      collect(batch.length);
      opts.onCompiled?.(compiledSoFar, misses.length);
      deadline.check();
      checkCpu((compiler?.cpuMs?.() ?? 0) - cpuAtStart, limits);
    }
  };
  // A build without a long-lived builder's memory gets one of its own: the `llms-full.txt` it
  // reads back is hashed to be checked, and the new one's hash resumes from that (published-memory.ts).
  const memory = opts.pageMemory?.files ?? new PublishedMemory();
  let reserving: Promise<void> | undefined;
  try {
    const compiling = compileAll(unique);
    // An edit waits here for its sandbox: meanwhile the memory its `llms-full.txt` files will be
    // written into is made ready (a kept builder has it already). Not for larger builds, whose
    // compile step is their memory's peak.
    if (previous?.llmsBytes && unique.length > 0 && unique.length < BATCH) {
      const sizes = Object.keys(previous.llmsBytes).map((key) => (Object.hasOwn(previous.objects, key) ? previous.objects[key].size : 0));
      reserving = memory.reserve(sizes).catch(() => undefined);
    }
    await compiling;
    // A twin takes its first copy's result when that compiled and imports nothing (relative
    // imports resolve from the page's own folder); otherwise it compiles on its own.
    const alone: string[] = [];
    for (const [twin, first] of twins) {
      const record = records.get(first);
      if (record && Object.keys(record.summary.deps).length === 0) records.set(twin, { cacheKey: record.cacheKey, summary: relocate(record.summary, twin, contentRoot) });
      else alone.push(twin);
    }
    await compileAll(alone);
    compiledCount = unique.length + alone.length;
  } finally {
    deferred?.release();
    if (!opts.compiler) await compiler?.close();
  }
  // A page that fails keeps its previously published version live (shell, export, feed, search).
  const failed = new Set(errors.keys());
  for (const p of failed) {
    const prev = previous?.pages[p];
    if (!prev) continue;
    let summary = summaries.pages.get(prev.cacheKey);
    if (!summary) {
      // The previous commit's blobs are the ones its imports had.
      const entry = await cache.get(prev.cacheKey, p, new Map(Object.entries(previous.files)));
      if (entry) { bodies.remember(prev.cacheKey, entry.page, entry.deps); summary = summarize(entry.page, entry.deps); }
    }
    if (summary) records.set(p, { cacheKey: prev.cacheKey, summary: relocate(summary, p, contentRoot) });
  }
  lap('compile');

  // API reference pages in the document's order, failed ones whose previous version stays live
  // (found above by source path) in their place.
  const apiBySource = new Map(apiRecords.map((r) => [r.summary.sourcePath, r]));
  const apiOrdered = (api?.order ?? []).flatMap((p) => {
    const record = apiBySource.get(p) ?? (errors.has(p) ? records.get(p) : undefined);
    return record ? [record] : [];
  });
  const ordered = [...sources.filter((p) => records.has(p)).map((p) => records.get(p)!), ...apiOrdered];
  const pageSummaries = ordered.map((r) => r.summary);
  // Languages and versions: a sidebar per combination; the default one is the site's `nav`.
  const { nav, dimensions } = rememberedSiteNav(pageSummaries, config, sources);
  const fallbacks = [...dimensions?.fallbacks.values() ?? []].flatMap((f) => (records.has(f.from) ? [{ record: records.get(f.from)!, urlPath: f.urlPath }] : []));
  // Pages renamed since the last publish redirect from their old URLs (kept across syncs).
  const renamed = await pageRenames(previous, sources, snapshot, contentRoot);
  const moves = nextMoves(previousMoves, renamed, new Set(pageSummaries.map((s) => s.urlPath)), new Set((config.redirects ?? []).map((r) => r.source)));
  const moved = renamed.filter((r) => moves[r.from] === r.to);
  const byUrl = new Map(ordered.map((r) => [r.summary.urlPath, r]));
  const previousPage = (sourcePath: string) => (previous && Object.hasOwn(previous.pages, sourcePath) ? previous.pages[sourcePath] : undefined);
  // What the previous build published of a page, and so rendered, exported and listed: the same cache key, imports and URL.
  const unchanged = ({ summary, cacheKey }: PageRecord) => {
    const before = previousPage(summary.sourcePath);
    return before !== undefined && samePublished(before, { cacheKey, urlPath: summary.urlPath, deps: summary.deps });
  };
  // Before anything is uploaded: with brokenLinks "error" a broken link fails the build here.
  const links = checkSiteLinks({
    config, sources, records, failed, fileKeys: [...layout.assets.values(), ...siteWideKeys(dimensions)],
    generated: apiRecords, otherPaths: [...Object.keys(moves), ...fallbacks.map((f) => f.urlPath)],
  }, opts.linkChecker ?? new LinkChecker());
  const manifestPages: Record<string, ManifestPage> = {};
  // Without languages or versions every page is the default version's: `latest`.
  const versionOf = (urlPath: string) => (dimensions ? versionLabel(urlPath, dimensions.dims) : 'latest');
  const nextSummaries = new Map<string, PageSummary>();
  const pagesChanged: string[] = [];
  for (const { summary, cacheKey } of ordered) {
    const p = summary.sourcePath;
    const isFailed = failed.has(p);
    const version = versionOf(summary.urlPath);
    const before = previousPage(p);
    const entry = manifestPage(before, {
      // An API reference page's source is the OpenAPI document.
      blob: isFailed ? previous!.pages[p].blob : snapshot.files.get(p) ?? api!.sourceId,
      cacheKey, urlPath: summary.urlPath, version: version !== 'latest' ? version : undefined,
      deps: Object.keys(summary.deps).length ? summary.deps : undefined,
      failed: isFailed ? true : undefined,
    });
    manifestPages[p] = entry;
    // Unchanged entries are the previous ones: the manifest's write compares only the others.
    if (entry !== before) pagesChanged.push(p);
    nextSummaries.set(cacheKey, summary);
  }

  // Page changes are reported before anything is uploaded: a report the control plane refuses (a
  // page too large for the pages API) fails the build while every object of the live site is
  // still the last successful build's. Shells and exports overwrite their keys in place as they
  // are emitted, so a failure after the first upload could serve a failed build's pages.
  if (opts.onPages) await opts.onPages(pageChanges(ordered, manifestPages, previous, snapshot, load));
  deadline.check();
  const publisher = createPublisher(store, previous?.objects ?? {}, limits);
  const islands = await publishIslands(ordered.filter((r) => !failed.has(r.summary.sourcePath)).map((r) => r.summary), publisher, readFile);
  const searchPages = pageSummaries.map((s) => ({ urlPath: s.urlPath, searchHash: s.searchHash }));
  // Pagefind indexes in its own process: start it now and let it run while shells render.
  const indexStart = performance.now();
  const indexing = buildSearchIndex(searchPages, {
    basePath: config.basePath, previous: previousSearch, perShard: opts.searchPerShard, started, filters, overlayLimit: opts.searchOverlay,
    load: async (paths) => Promise.all(paths.map((p) => limit(() => load(byUrl.get(p)!)))),
  }).then(async (search) => {
    for (const [key, bytes] of search.files) await publisher.emit(key, bytes);
    for (const key of search.kept) publisher.keep(key);
    timings.index = Math.round(performance.now() - indexStart);
    return search;
  });
  indexing.catch(() => undefined); // awaited below; a failure while shells render is reported there

  // Files included with $ref count as docs.json: a change to one re-renders every shell.
  const utilities = await utilitiesSheet(classesOfPages(pageSummaries.map((s) => s.classes)), previous?.utilities, (key) => publisher.keep(key));
  const utilitiesKey = utilities.state.key;
  if (utilitiesKey && utilities.css !== undefined) await publisher.emit(utilitiesKey, utilities.css);
  const customKey = await publishCustomCss(snapshot, configBytes, config, previous, publisher, opts.customCss === true);
  const configHash = loaded.files.size > 1 ? sha256(JSON.stringify([...loaded.files])) : sha256(configBytes);
  const rendered = await renderSite(ordered, {
    config, configHash, nav, ...(dimensions ? { dimensions, fallbacks } : {}), searchBase: plannedSearchBase(searchPages, config.basePath, opts.searchPerShard), publisher,
    ...(utilitiesKey ? { utilities: `/${utilitiesKey}` } : {}),
    ...(customKey ? { custom: `/${customKey}` } : {}),
    islands: islands.paths,
    previousInputs: previous?.inputs ?? {}, unchanged, year: opts.year ?? new Date().getUTCFullYear(), load, tick: (shells) => { deadline.check(); collect(shells); }, onShell: opts.onShell,
  });
  lap('render');

  // The site-wide files are made once the shells are: an edited page goes live without waiting
  // for them (`llms-full.txt` holds every page's Markdown, 55 MB at 10,000 pages; unchanged
  // pages' is sliced from the published file), and a cold build's shells render without them in memory.
  await reserving;
  const markdown = await recallMarkdown({ records: ordered, known: spools.markdown.count ? spools.markdown.readAll() : undefined, index: previous?.llmsBytes, objects: previous?.objects ?? {}, store, load, memory });
  // The fields the site-wide files read, not a copy of each summary (10,000 of ~20 fields each).
  const exportPages: SiteWidePage[] = ordered.map((r) => {
    const { urlPath, title, description, updates, seo } = r.summary;
    return { urlPath, title, description, updates, seo, markdown: markdown.get(contentKey(r))! };
  });
  const llmsSegments = new Map<string, LlmsSegment[]>();
  const siteWide = siteWideExports(exportPages, config, {
    nav, moved: moves, ...(dimensions ? { dimensions } : {}), alloc: (size: number) => memory.scratch(size),
  }, llmsSegments);

  // llms-full.txt (55 MB at 10,000 pages): hashed from where it differs from the one remembered,
  // and emitted before the pages' own exports are made, so its upload (the longest of an edit)
  // runs while they are. No page export has a site-wide file's key (site-paths.ts).
  for (const [key, text] of siteWide) await publisher.emit(key, text, llmsSegments.has(key) ? memory.sha256(key, text as Buffer) : undefined);
  await publisher.emit(HEADERS_KEY, siteHeaders(config));

  // A page's own exports (Markdown, feed) are kept as published when neither the page nor what
  // they read of the configuration changed: an edit makes two of them, not two per page. What
  // they read of the page (cache key, imports, URL) is in its manifest entry, so the manifest
  // records one hash for the configuration's part instead of an input hash per export (20,000
  // entries at 10,000 pages, hashed, compared and stored by every build).
  const exportsHash = sha256(JSON.stringify([PAGE_EXPORTS_VERSION, configHash, config.siteUrl, config.basePath]));
  const exportsKept = previous?.exportsHash === exportsHash;
  for (const record of ordered) {
    const { summary } = record;
    const [markdownKey, feedKey] = exportKeysOf(summary);
    if (exportsKept && unchanged(record) && publisher.keep(markdownKey) && publisher.keep(feedKey)) continue;
    for (const [key, text] of pageExports({ ...summary, markdown: (await load(record)).markdown }, config)) await publisher.emit(key, text);
    collect(1);
  }
  await publishPublicFiles(snapshot, publisher, previous?.files ?? {}, layout.assets);
  lap('exports');
  await indexing;
  mark = performance.now();
  opts.onStep?.('index');
  deadline.check();

  // Everything is emitted; the uploads (`llms-full.txt` among them, 55 MB at 10,000 pages) may
  // still run. The builder's state is written meanwhile: page summaries and moves describe pages
  // by their cache keys and paths, true whether or not this publish completes, and the manifest's
  // buckets are named by nothing until the manifest itself, written after the uploads.
  const { objects, changed: objectsChanged } = publisher.seal();
  const uploads = publisher.finish();
  uploads.catch(() => undefined); // awaited by the manifest's write, and below
  // Written while the manifest's buckets are: the manifest takes the summaries' hash once known.
  const summariesWritten = Promise.all([
    writeSummaries(store, nextSummaries, failures, { stored: summaries.stored, hash: previous?.summariesHash }),
    writeMoves(store, moves, previousMoves),
  ]);
  summariesWritten.catch(() => undefined); // awaited by the manifest's write
  const files = manifestFiles(snapshot.files, previous?.files);
  const manifest: BuildManifest = {
    version: 1, commit: snapshot.commit, configHash, compilerVersion: COMPILER_VERSION, templateVersion: TEMPLATE_VERSION,
    files: files.files, pages: manifestPages, inputs: rendered.inputs, objects, exportsHash,
    llmsBytes: llmsFullIndex(llmsSegments, byUrl),
    ...(customKey ? { customCss: customKey } : {}),
    utilities: utilities.state,
  };
  await writeManifest(store, manifest, previous, {
    changed: { files: files.changed, pages: pagesChanged, inputs: rendered.changed, objects: objectsChanged },
    ready: uploads, fields: summariesWritten.then(([summariesHash]) => ({ summariesHash })),
  });
  const stats = await uploads;
  // Uploaded: a long-lived builder keeps this build's llms-full.txt files for the next to slice.
  memory.remember(new Map([...llmsSegments.keys()].map((key) => [stats.objects[key].hash, siteWide.get(key) as Buffer])));
  lap('publish');
  timings.total = Math.round(performance.now() - start);

  return {
    ...(snapshot.commit ? { commit: snapshot.commit } : {}),
    pagesTotal: sources.length + apiRecords.length + (api?.failures.length ?? 0),
    pagesSuccess: sources.length + apiRecords.length + (api?.failures.length ?? 0) - failed.size,
    pagesFailed: failed.size,
    errors: [...errors.keys()].sort().map((p) => errors.get(p)!),
    warnings: [...config.warnings, ...links.lines, ...islands.warnings],
    linksChecked: links.checked,
    compiled: compiledCount,
    ...(api ? { apiPagesGenerated: api.generated } : {}),
    ...(moved.length ? { moved } : {}),
    uploaded: stats.uploaded,
    deleted: stats.deleted,
    // In pipeline order (index finishes while shells render, so it would come first otherwise).
    timings: Object.fromEntries(STEPS.filter((step) => timings[step] !== undefined).map((step) => [step, timings[step]])),
  };
}

/**
 * Publishes the custom stylesheet and returns its key: built from the repository when the plan
 * has custom CSS, else the previous build's kept as it was (quota rule 6), with a warning when
 * the repository has stylesheets the plan does not apply.
 */
async function publishCustomCss(snapshot: RepoSnapshot, configBytes: Uint8Array, config: ResolvedConfig, previous: BuildManifest | undefined, publisher: ReturnType<typeof createPublisher>, enabled: boolean): Promise<string | undefined> {
  let raw: unknown;
  try { raw = JSON.parse(Buffer.from(configBytes).toString('utf8')); } catch { raw = undefined; }
  if (!enabled) {
    if (customCssFiles(snapshot, raw).files.length) {
      config.warnings.push(previous?.customCss
        ? 'Custom CSS: your plan no longer includes custom CSS; the stylesheet of the last build that had it is kept as it was, and changes to it are not applied'
        : 'Custom CSS: style.css and the stylesheets listed under "css" need the Pro plan; they are not applied');
    }
    const kept = previous?.customCss;
    return kept && publisher.keep(kept) ? kept : undefined;
  }
  const built = await buildCustomCss(snapshot, raw, config.siteUrl);
  config.warnings.push(...built.warnings);
  if (!built.css) return undefined;
  const key = customCssKey(built.css);
  if (!publisher.keep(key)) await publisher.emit(key, built.css);
  return key;
}

/** Opens the repository snapshot of a build source (cloning or fetching a remote first). */
export async function openSource(source: BuildSource): Promise<RepoSnapshot> {
  if (source.kind === 'snapshot') return source.snapshot;
  if (source.kind === 'remote') {
    // Git's HTTP client loads only for a remote: a local repository (the CLI, CI) never needs it.
    const { syncRemote } = await import('./git/sync-remote.ts');
    const { commit } = await syncRemote({ url: source.url, dir: source.workDir, branch: source.branch, token: source.token });
    return openGitSnapshot(source.workDir, commit);
  }
  return isGitRepository(source.dir) ? openGitSnapshot(source.dir, source.ref ?? 'HEAD', gitdirOf(source.dir)) : openDirSnapshot(source.dir);
}

/**
 * Pages renamed since the previous publish, as URL paths: Git's rename detection between the
 * previous manifest's pages that are gone and this commit's pages that are new.
 */
async function pageRenames(previous: BuildManifest | undefined, sources: readonly string[], snapshot: RepoSnapshot, contentRoot: string): Promise<Array<{ from: string; to: string }>> {
  if (!previous) return [];
  const added = new Map(sources.filter((p) => !previous.pages[p]).map((p) => [p, snapshot.files.get(p)!]));
  // No new page (most edits): nothing moved, and the previous pages need not be listed.
  if (!added.size) return [];
  const now = new Set(sources);
  // API reference pages ("spec#GET /x") have no file of their own: they never move by rename.
  const deleted = new Map(Object.entries(previous.pages).filter(([p]) => !now.has(p) && !p.includes('#')).map(([p, page]) => [p, page.blob]));
  if (!deleted.size) return [];
  const renames = await detectRenames(deleted, added, snapshot.readBlob?.bind(snapshot));
  return renames.map((r) => ({ from: previous.pages[r.from].urlPath, to: urlPathFor(r.to, contentRoot) }));
}

/** `<dir>/.git` for a working copy, `dir` itself for a bare repository. */
function gitdirOf(dir: string): string {
  return fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
}

/** Pages whose published version differs from the previous manifest's, and the removed ones. */
function pageChanges(
  ordered: readonly PageRecord[], pages: Record<string, ManifestPage>, previous: BuildManifest | undefined, snapshot: RepoSnapshot,
  load: (record: PageRecord) => Promise<CompiledPage>,
): PageChanges {
  const changed = ordered.filter((record) => {
    const before = previous?.pages[record.summary.sourcePath];
    const now = pages[record.summary.sourcePath];
    // An unchanged page's entry is the previous one itself (manifestPage).
    return !(before === now || (before && before.version === now.version && samePublished(before, now)));
  });
  const upsertOf = async (record: PageRecord): Promise<PageUpsert> => {
    const now = pages[record.summary.sourcePath];
    const page = await load(record);
    // An API reference page has no file of its own: its source is its Markdown.
    const bytes = !page.api && snapshot.files.get(page.sourcePath) === now.blob ? await snapshot.read(page.sourcePath) : undefined;
    return { page, source: page.api ? page.markdown : bytes ? Buffer.from(bytes).toString('utf8') : '', version: now.version ?? 'latest' };
  };
  // Removed: a previous page whose URL no page has now. Most are still at their source path, with
  // their URL: only the others are looked for among every page's URL.
  const moved: Array<{ sourcePath: string; urlPath: string }> = [];
  const before = previous?.pages ?? {};
  for (const sourcePath in before) {
    const { urlPath } = before[sourcePath];
    if (!(Object.hasOwn(pages, sourcePath) && pages[sourcePath].urlPath === urlPath)) moved.push({ sourcePath, urlPath });
  }
  const live = moved.length ? new Set(Object.values(pages).map((p) => p.urlPath)) : undefined;
  const removed = moved.filter((p) => !live!.has(p.urlPath));
  return {
    async* upserted(size = UPSERT_BATCH) {
      for (let i = 0; i < changed.length; i += size) {
        const batch: PageUpsert[] = [];
        for (const record of changed.slice(i, i + size)) batch.push(await upsertOf(record));
        yield batch;
      }
    },
    removed,
  };
}

/** Whether a manifest entry records the page as published from the same source (cache key), imports and URL. */
function samePublished(before: ManifestPage, now: Pick<ManifestPage, 'cacheKey' | 'urlPath' | 'deps'>): boolean {
  return before.cacheKey === now.cacheKey && before.urlPath === now.urlPath && sameDeps(before.deps, now.deps);
}

/** Whether two pages imported the same files (a manifest entry leaves out empty imports, a summary has `{}`). */
function sameDeps(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return a === b || (isEmpty(a) && isEmpty(b)) || sameJson(a, b);
}

function isEmpty(deps: Record<string, string> | undefined): boolean {
  for (const _ in deps) return false;
  return true;
}

/**
 * The keys of a page's own exports, by summary: a long-lived builder's next build gets the same
 * summary objects for unchanged pages (frozen, from its memory of the summaries), so an edit
 * makes its page's keys instead of every page's.
 */
const exportKeysMemo = new WeakMap<PageSummary, readonly [string, string]>();

function exportKeysOf(summary: PageSummary): readonly [string, string] {
  let keys = exportKeysMemo.get(summary);
  if (!keys) exportKeysMemo.set(summary, keys = pageExportKeys(summary.urlPath));
  return keys;
}

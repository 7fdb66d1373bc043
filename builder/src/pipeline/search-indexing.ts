/**
 * The site's search index, made by Pagefind (its own process) beside the other steps, fed as
 * pages become available:
 *
 * - `start` (plan step): the indexes the build will write are foreseen and opened, and the
 *   unchanged pages they hold are sent at once (outputs/early-search.ts);
 * - `add` (compile step): each compiled batch goes to its opened indexes, in the order a cold
 *   build would send them, so a shard whose pages have all arrived writes its bundle while the
 *   next shards compile; `compiled` ends the compile step (a large build's indexing waits for it,
 *   see outputs/deferred-shards.ts);
 * - `finish` (render step): the final decision (outputs/search-index.ts) takes what was indexed
 *   early, indexes the rest and publishes the bundles, while the shells render;
 * - `done` (after exports) waits for that; `discard` frees what a failed build left open.
 */
import { startChangedShards, type EarlyShards } from '../outputs/early-search.ts';
import { DeferredShards } from '../outputs/deferred-shards.ts';
import { buildSearchIndex, discardStarted, type StartedShard } from '../outputs/search-index.ts';
import type { SearchEntry } from '../outputs/search-shards.ts';
import type { Publisher } from '../publish.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { CompiledPage } from '../types.ts';
import type { BuildContext } from './context.ts';
import type { BuildPlan } from './plan.ts';

/**
 * Pages to compile from which Pagefind indexes only after the compile step (deferred-shards.ts):
 * the compile step of such a build is long enough to be its memory's peak, and indexing at its
 * end overlaps the shells' render. Smaller builds (edits, most sites) index as pages compile,
 * which ends them sooner.
 */
export const SEARCH_AFTER_COMPILE_FROM = 2_000;

/** See the module comment. */
export class SearchIndexing {
  private readonly ctx: BuildContext;
  /** Shard name (or `overlay`) → its index opened early. */
  private readonly started = new Map<string, StartedShard>();
  private early?: EarlyShards;
  private deferred?: DeferredShards;
  private indexing?: Promise<unknown>;

  constructor(ctx: BuildContext) {
    this.ctx = ctx;
  }

  /** Opens the indexes the plan's changes need and sends them their unchanged pages. */
  start(plan: BuildPlan): void {
    const { opts, spools } = this.ctx;
    const deferred = plan.misses.length >= (opts.searchAfterCompileFrom ?? SEARCH_AFTER_COMPILE_FROM) ? new DeferredShards(spools.documents) : undefined;
    this.deferred = deferred;
    this.early = startChangedShards({
      open: deferred?.open, changed: plan.misses, unchanged: [...plan.records.values(), ...plan.apiRecords], pageCount: plan.sources.length + plan.apiRecords.length,
      contentRoot: plan.contentRoot, basePath: plan.config.basePath, perShard: opts.searchPerShard, load: plan.load, filters: plan.filters,
      previous: plan.previousSearch, overlayLimit: opts.searchOverlay, spool: spools.search,
    });
    for (const [name, shard] of this.early.started) this.started.set(name, shard);
  }

  /**
   * The pages to compile in the order that suits the opened indexes: shard after shard (each in
   * path order), so a shard's search bundle is written as soon as its last page is compiled,
   * while the next shards compile, not all of them after the last page.
   */
  compileOrder(paths: readonly string[]): string[] {
    const early = this.early!;
    return [...paths].sort((a, b) => early.rank(a) - early.rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Freshly compiled pages, to their opened indexes (in the background). */
  add(pages: readonly CompiledPage[]): void {
    this.early!.add(pages);
  }

  /** The compile step is over: indexing deferred until then may start. */
  compiled(): void {
    this.deferred?.release();
  }

  /**
   * Indexes what the final pages need beyond what was indexed early, and publishes the bundles
   * and the search manifest; runs while the shells render (`done` waits for it). Sets the
   * `index` timing to its own duration.
   */
  finish(pages: readonly SearchEntry[], byUrl: ReadonlyMap<string, PageRecord>, plan: BuildPlan, publisher: Publisher): void {
    const { opts, limit, timings } = this.ctx;
    const indexStart = performance.now();
    const indexing = buildSearchIndex(pages, {
      basePath: plan.config.basePath, previous: plan.previousSearch, perShard: opts.searchPerShard, started: this.started, filters: plan.filters, overlayLimit: opts.searchOverlay,
      load: async (paths) => Promise.all(paths.map((p) => limit(() => plan.load(byUrl.get(p)!)))),
    }).then(async (search) => {
      for (const [key, bytes] of search.files) await publisher.emit(key, bytes);
      for (const key of search.kept) publisher.keep(key);
      timings.index = Math.round(performance.now() - indexStart);
      return search;
    });
    indexing.catch(() => undefined); // awaited by `done`; a failure while shells render is reported there
    this.indexing = indexing;
  }

  /** Waits for `finish`'s indexing and publishing. */
  async done(): Promise<void> {
    await this.indexing;
  }

  /** Closes indexes opened early (a no-op for those written): frees Pagefind's memory after a failure. */
  discard(): Promise<void> {
    return discardStarted(this.started);
  }
}

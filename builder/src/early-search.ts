import { urlPathFor } from './compile/index.ts';
import { openPagefindShard } from './outputs/pagefind-shard.ts';
import type { StartedShard } from './outputs/search-index.ts';
import { shardCount, shardOf } from './outputs/search-shards.ts';
import type { PageRecord } from './page-bodies.ts';
import type { CompiledPage } from './types.ts';

/** Most changed pages for which shards are opened early; beyond, most shards change anyway. */
export const EARLY_SEARCH_MAX_CHANGES = 50;

/** What {@link startChangedShards} needs. */
export interface EarlySearchOptions {
  /** Source paths of the pages about to compile. */
  changed: readonly string[];
  /** The pages that will not compile (cache hits), with their summaries. */
  unchanged: readonly PageRecord[];
  /** Pages the site will have: the shard count follows from it. */
  pageCount: number;
  contentRoot: string;
  basePath: string;
  /** As `buildSearchIndex`'s `perShard`. */
  perShard?: number;
  load(record: PageRecord): Promise<CompiledPage>;
}

/**
 * Opens the search shards that hold changed pages and indexes their unchanged pages while the
 * changed ones compile. Pagefind runs in its own process, so a one-page edit's shard is mostly
 * indexed by the time its page is compiled; `buildSearchIndex` then adds the changed pages
 * (`started`). If the final shard plan differs (a new page failed, so the count changed), the
 * early shards are simply discarded. Empty when there are too many changes to be worth it.
 */
export function startChangedShards(opts: EarlySearchOptions): Map<string, StartedShard> {
  const started = new Map<string, StartedShard>();
  if (opts.changed.length === 0 || opts.changed.length > EARLY_SEARCH_MAX_CHANGES) return started;
  const count = shardCount(opts.pageCount, opts.perShard);
  const names = new Set(opts.changed.map((p) => shardOf(urlPathFor(p, opts.contentRoot), count)));
  for (const index of names) {
    const members = opts.unchanged.filter((r) => shardOf(r.summary.urlPath, count) === index);
    const shard = openPagefindShard(opts.basePath).then(async (s) => {
      await s.add(await Promise.all(members.map((r) => opts.load(r))));
      return s;
    });
    shard.catch(() => undefined); // used (and its failure reported) by buildSearchIndex, or discarded
    started.set(`${count}-${index}`, { shard, urlPaths: new Set(members.map((r) => r.summary.urlPath)) });
  }
  return started;
}

import { urlPathFor } from './compile/index.ts';
import { openPagefindShard, type PagefindShard } from './outputs/pagefind-shard.ts';
import type { StartedShard } from './outputs/search-index.ts';
import { shardCount, shardOf, type SearchFilters } from './outputs/search-shards.ts';
import type { PageRecord } from './page-bodies.ts';
import type { CompiledPage } from './types.ts';

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
  /** As `buildSearchIndex`'s `filters`. */
  filters?: SearchFilters;
  load(record: PageRecord): Promise<CompiledPage>;
}

/** Search shards opened before the pages they need are all compiled. */
export interface EarlyShards {
  /** Shard name → its index, for `buildSearchIndex`'s `started`. */
  started: Map<string, StartedShard>;
  /** Adds freshly compiled pages to their opened shards (in the background). */
  add(pages: readonly CompiledPage[]): void;
}

interface OpenShard { shard: Promise<PagefindShard>; urlPaths: Set<string> }

/**
 * Opens the search shards that hold changed pages, indexes their unchanged pages, and indexes
 * each batch of changed pages as soon as it is compiled (`add`). Pagefind runs in its own
 * process, so indexing overlaps compiling: a one-page edit's shard is mostly indexed by the time
 * its page is compiled, and a cold build leaves little more than writing the bundles once the
 * last page is compiled. `buildSearchIndex` then adds whatever is missing (`started`). If the
 * final shard plan differs (a new page failed, so the count changed), the early shards are
 * simply discarded.
 *
 * Unchanged pages are loaded one shard after another, so at most one shard's bodies are held
 * here at a time.
 */
export function startChangedShards(opts: EarlySearchOptions): EarlyShards {
  const started = new Map<string, OpenShard>();
  const count = shardCount(opts.pageCount, opts.perShard);
  const nameOf = (urlPath: string) => `${count}-${shardOf(urlPath, count)}`;
  let loading: Promise<unknown> = Promise.resolve();
  for (const name of new Set(opts.changed.map((p) => nameOf(urlPathFor(p, opts.contentRoot))))) {
    const members = opts.unchanged.filter((r) => nameOf(r.summary.urlPath) === name);
    const opened = openPagefindShard(opts.basePath, opts.filters);
    const filled = loading.then(() => opened).then(async (s) => {
      await s.add(await Promise.all(members.map((r) => opts.load(r))));
      return s;
    });
    loading = filled.catch(() => undefined);
    const entry: OpenShard = { shard: filled, urlPaths: new Set(members.map((r) => r.summary.urlPath)) };
    entry.shard.catch(() => undefined); // used (and its failure reported) by buildSearchIndex, or discarded
    started.set(name, entry);
  }
  return {
    started,
    add(pages) {
      const byShard = new Map<OpenShard, CompiledPage[]>();
      for (const page of pages) {
        const entry = started.get(nameOf(page.urlPath));
        if (!entry) continue;
        entry.urlPaths.add(page.urlPath);
        const list = byShard.get(entry);
        if (list) list.push(page);
        else byShard.set(entry, [page]);
      }
      for (const [entry, list] of byShard) {
        entry.shard = entry.shard.then(async (s) => {
          await s.add(list);
          return s;
        });
        entry.shard.catch(() => undefined);
      }
    },
  };
}

import { urlPathFor } from '../compile/index.ts';
import { openPagefindShard, type PagefindShard } from './pagefind-shard.ts';
import type { SearchManifest, StartedShard } from './search-index.ts';
import { decideOverlay, OVERLAY_NAME, pageStamp } from './search-overlay.ts';
import { shardCount, shardOf, type SearchFilters } from './search-shards.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { Spool } from '../state/spool.ts';
import type { CompiledPage } from '../types.ts';

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
  /** As `buildSearchIndex`'s `previous`: with it, the overlay and the shards to fold are foreseen. */
  previous?: SearchManifest;
  /** As `buildSearchIndex`'s `overlayLimit`. */
  overlayLimit?: number;
  load(record: PageRecord): Promise<CompiledPage>;
  /** Where the bundles written early wait for the publish (default: memory). */
  spool?: Spool;
  /** Opens a shard's index (default: `openPagefindShard`; `DeferredShards.open` indexes after the compile step). */
  open?: typeof openPagefindShard;
}

/** Search shards opened before the pages they need are all compiled. */
export interface EarlyShards {
  /** Shard name (or `overlay`) → its index, for `buildSearchIndex`'s `started`. */
  started: Map<string, StartedShard>;
  /** Adds freshly compiled pages to their opened shards (in the background). */
  add(pages: readonly CompiledPage[]): void;
  /**
   * Where a page to compile comes in the compile order: its shard's rank. Compiling shard after
   * shard lets each shard's bundle be written while the next ones compile.
   */
  rank(sourcePath: string): number;
}

interface OpenShard { shard: Promise<PagefindShard>; urlPaths: Set<string>; files?: StartedShard['files'] }

/** A shard's pages in the order Pagefind must receive them, and how far they have been sent. */
interface ShardQueue {
  name: string;
  entry: OpenShard;
  /** Every page the shard will hold, by URL path: unchanged ones with their record. */
  order: Array<{ urlPath: string; record?: PageRecord }>;
  next: number;
  /** Changed pages compiled but not sent yet (an earlier page of the order is still compiling). */
  ready: Map<string, CompiledPage>;
}

/**
 * Opens the search indexes the build will write, foreseen as `buildSearchIndex` decides (the
 * pages still to compile count as changed): the overlay, when the changes fit in it, and the
 * shards to re-index (every shard on a cold build). Their pages are indexed while the changed
 * ones compile, so Pagefind (its own process) indexes while pages compile: `buildSearchIndex`
 * then adds whatever is missing (`started`). If the final decision differs (a page compiled to
 * the same search document, or a new page failed, so the count changed), the early indexes not
 * used are simply discarded.
 *
 * Pagefind numbers pages in the order they are added, and its index and metadata files follow
 * those numbers. So that a bundle is the same bytes whichever pages changed (an edit
 * publishes exactly what a cold build of the same commit publishes), pages are sent in one
 * order, their URL paths sorted (the order `planShards` gives a shard's pages): unchanged pages up to the
 * first changed one at once, the rest as the changed pages before them arrive. An edit's shard
 * is thus about half indexed by the time its page is compiled.
 *
 * Unchanged pages are loaded one index after another, so at most one shard's bodies are held
 * here at a time.
 */
export function startChangedShards(opts: EarlySearchOptions): EarlyShards {
  const started = new Map<string, OpenShard>();
  const queues = new Map<string, ShardQueue>();
  const count = shardCount(opts.pageCount, opts.perShard);
  const shardName = (urlPath: string) => `${count}-${shardOf(urlPath, count)}`;
  let loading: Promise<unknown> = Promise.resolve();
  /** Sends the shard's next pages that are at hand, in order. */
  const advance = (queue: ShardQueue) => {
    const batch: Array<PageRecord | CompiledPage> = [];
    for (; queue.next < queue.order.length; queue.next++) {
      const { urlPath, record } = queue.order[queue.next];
      const page = record ?? queue.ready.get(urlPath);
      if (!page) break;
      queue.ready.delete(urlPath);
      batch.push(page);
      queue.entry.urlPaths.add(urlPath);
    }
    if (batch.length === 0) return;
    const complete = queue.next === queue.order.length;
    const withBodies = () => Promise.all(batch.map((p) => ('summary' in p ? opts.load(p) : p)));
    let bodies: Promise<CompiledPage[]>;
    if (batch.some((p) => 'summary' in p)) {
      // Unchanged bodies are read one batch at a time (bounded memory).
      bodies = loading.then(withBodies);
      loading = bodies.catch(() => undefined);
    } else {
      bodies = withBodies();
    }
    queue.entry.shard = sent(queue.entry.shard, bodies);
    // Every page of the shard sent: its bundle is written now, while other shards' pages compile,
    // instead of after the last page of the site (buildSearchIndex takes it if the plan agrees).
    if (complete) queue.entry.files = written(queue.name, queue.entry.shard, opts.spool);
  };
  const changedPaths = opts.changed.map((p) => urlPathFor(p, opts.contentRoot));
  const unchangedByPath = new Map(opts.unchanged.map((record) => [record.summary.urlPath, record]));
  const current = new Map<string, string | undefined>([
    ...opts.unchanged.map((r) => [r.summary.urlPath, pageStamp(r.summary.urlPath, r.summary.searchHash, opts.filters)] as const),
    ...changedPaths.map((urlPath) => [urlPath, undefined] as const),
  ]);
  const decision = changedPaths.length === 0 ? undefined
    : decideOverlay(current, opts.previous, { basePath: opts.basePath, perShard: opts.perShard, limit: opts.overlayLimit, count });
  const inOverlay = new Set(decision?.pages);
  // The index each page goes to: the overlay, or its shard when that shard is re-indexed.
  const groupOf = (urlPath: string) => (inOverlay.has(urlPath) ? OVERLAY_NAME : decision?.reindex.size && decision.reindex.has(shardName(urlPath)) ? shardName(urlPath) : undefined);
  const groups = new Map<string, string[]>();
  for (const urlPath of [...changedPaths, ...unchangedByPath.keys()]) {
    const name = groupOf(urlPath);
    if (name === undefined) continue;
    const group = groups.get(name);
    if (group) group.push(urlPath);
    else groups.set(name, [urlPath]);
  }
  // The overlay first, then shards in the order their first changed page comes.
  const names = [...new Set([...(inOverlay.size ? [OVERLAY_NAME] : []), ...changedPaths.map(groupOf).filter((n): n is string => n !== undefined), ...groups.keys()])];
  for (const name of names) {
    const order = (groups.get(name) ?? []).map((urlPath) => ({ urlPath, record: unchangedByPath.get(urlPath) }))
      .sort((a, b) => (a.urlPath < b.urlPath ? -1 : a.urlPath > b.urlPath ? 1 : 0));
    const entry: OpenShard = { shard: (opts.open ?? openPagefindShard)(opts.basePath, opts.filters), urlPaths: new Set() };
    entry.shard.catch(() => undefined);
    started.set(name, entry);
    const queue: ShardQueue = { name, entry, order, next: 0, ready: new Map() };
    queues.set(name, queue);
    advance(queue);
  }
  const ranks = new Map(names.map((name, i) => [name, i]));
  return {
    started,
    rank: (sourcePath) => ranks.get(groupOf(urlPathFor(sourcePath, opts.contentRoot)) ?? '') ?? ranks.size,
    add(pages) {
      const touched = new Set<ShardQueue>();
      for (const page of pages) {
        const queue = queues.get(groupOf(page.urlPath) ?? '');
        if (!queue) continue;
        queue.ready.set(page.urlPath, page);
        touched.add(queue);
      }
      for (const queue of touched) advance(queue);
    },
  };
}

// The two continuations of a shard, made apart from `advance`: closures made in one call share
// its scope, and one made there would keep the batch of pages it sent alive for as long as it
// waits (a bundle indexed after the compile step waits for all of it: deferred-shards.ts).

/** `shard` once `pages` are added to it. */
function sent(shard: Promise<PagefindShard>, pages: Promise<CompiledPage[]>): Promise<PagefindShard> {
  const added = Promise.all([shard, pages]).then(async ([s, list]) => {
    await s.add(list);
    return s;
  });
  added.catch(() => undefined); // used (and its failure reported) by buildSearchIndex, or discarded
  return added;
}

/** The bundle of `shard` once written, kept in `spool` under its `name`. */
function written(name: string, shard: Promise<PagefindShard>, spool: Spool | undefined): Promise<() => Map<string, Buffer>> {
  const files = shard.then(async (s) => spooled(`${name} `, await s.files(), spool));
  files.catch(() => undefined);
  return files;
}

/**
 * A bundle read back when published: from `spool` (under `prefix` and each file's key), so
 * bundles written while the rest of the site compiles do not stay in memory meanwhile.
 */
function spooled(prefix: string, files: Map<string, Buffer>, spool: Spool | undefined): () => Map<string, Buffer> {
  if (!spool) return () => files;
  for (const [key, bytes] of files) spool.add(prefix + key, bytes);
  return readBack(prefix, [...files.keys()], spool);
}

/**
 * The reader of a spooled bundle, made apart from `spooled`: closures made in one call share its
 * scope, so a reader made there would keep `files` (the bundle's bytes) alive after all.
 */
function readBack(prefix: string, keys: string[], spool: Spool): () => Map<string, Buffer> {
  return () => new Map(keys.map((key) => [key, spool.get(prefix + key)!]));
}

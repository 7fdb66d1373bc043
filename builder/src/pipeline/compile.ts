/**
 * The compile step: the plan's cache misses are compiled in batches by the sandboxes (the next
 * batch is queued before the current one's results are stored, so the sandboxes never wait for
 * this process), each result cached and recorded, its page sent to the search index and its
 * Markdown to `llms-full.txt`. A page that fails keeps its previously published version.
 */
import { frontmatterApi } from '../api/frontmatter-pages.ts';
import { copyCacheKey, isCacheableFailure, type CacheEntry } from '../cache/page-cache.ts';
import { depsHoldAt, pageDeps } from '../cache/page-deps.ts';
import { isPageFailure } from '../compile/index.ts';
import { createCompiler } from '../sandbox/index.ts';
import { checkCpu } from '../limits/build-limits.ts';
import { storedTooLarge } from '../sandbox/page-output.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import { relocate, summarize, type FailureSummary } from '../state/page-summaries.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import type { BuildContext } from './context.ts';
import type { LlmsFullText } from './llms-full.ts';
import type { BuildPlan } from './plan.ts';
import type { SearchIndexing } from './search-indexing.ts';

/** Pages per compile batch: large enough to keep both cores busy, small enough to bound memory. */
const BATCH = 200;

/** What the compile step did. */
export interface CompileResult {
  /** Pages compiled (the cache misses). */
  compiled: number;
  /** Of those, the pages that took the static path (no JavaScript of their own: compile/static-page.ts). */
  staticPages: number;
  /** Source path → record of every page: the plan's hits, the pages compiled, and failed pages' previous versions. */
  records: Map<string, PageRecord>;
  /** Every page failure of this build by source path. */
  errors: Map<string, PageFailure>;
  /** The failures the next build may reuse (summarized for it). */
  failures: Map<string, FailureSummary>;
  /** Source paths of the pages that failed (this build or, unchanged, before). */
  failed: Set<string>;
}

/** Where compiled pages go besides the plan's records. */
export interface CompileFeeds { search: SearchIndexing; llms: LlmsFullText }

/**
 * Compiles the plan's misses, `order` (one page per cache key) first, then the twins that cannot
 * take their first copy's result; returns every page's record and failure, the plan's and its own.
 */
export async function compile(ctx: BuildContext, plan: BuildPlan, order: readonly string[], { search, llms }: CompileFeeds): Promise<CompileResult> {
  const { opts, limits, deadline } = ctx;
  const { snapshot, contentRoot, keyOf, ownKeys, cache, bodies, misses, twins, previous, summaries } = plan;
  const records = new Map(plan.records);
  const errors = new Map(plan.errors);
  const failures = new Map(plan.failures);
  const compiler = opts.compiler ?? (misses.length > 0 ? await createCompiler({ limits: opts.pageLimits }) : undefined);
  const cpuAtStart = compiler?.cpuMs?.() ?? 0;
  const staticAtStart = compiler?.staticPages?.() ?? 0;
  const api = frontmatterApi(plan, opts.fetchUrl);
  const readFile = async (repoPath: string) => (snapshot.files.has(repoPath) ? Buffer.from(await snapshot.read(repoPath)).toString('utf8') : undefined);
  const startBatch = (list: readonly string[], i: number) => {
    const batch = list.slice(i, i + BATCH);
    const texts = Promise.all(batch.map(async (p) => Buffer.from(await snapshot.read(p)).toString('utf8')));
    const results = texts.then((t) => compiler!.compile(batch.map((p, j) => ({ sourcePath: p, source: t[j], contentRoot })), { readFile }));
    // Awaited in turn; a failure while an earlier batch is processed must not go unhandled meanwhile.
    texts.catch(() => undefined);
    results.catch(() => undefined);
    return { batch, texts, results };
  };
  let compiledSoFar = 0;
  const compileAll = async (list: readonly string[]) => {
    // The next batch is queued before this one's results are stored, so the compile workers
    // never wait for the main thread's cache writes.
    let current = list.length > 0 ? startBatch(list, 0) : undefined;
    for (let i = 0; current; i += BATCH) {
      const upcoming = i + BATCH < list.length ? startBatch(list, i + BATCH) : undefined;
      const { batch } = current;
      const texts = await current.texts;
      // A page too large to store in the pages API fails as a page (its previous version stays live).
      // Pages naming an API operation in their frontmatter get its generated view (api/frontmatter-pages.ts).
      const made = await Promise.all((await current.results).map((res, j) => api.apply(res, texts[j])));
      const compiled = made.map(({ result: res }, j): CompiledPage | PageFailure => {
        const tooLarge = isPageFailure(res) ? undefined : storedTooLarge(texts[j], res);
        return tooLarge ? { sourcePath: batch[j], message: tooLarge } : res;
      });
      current = upcoming;
      search.add(compiled.filter((res): res is CompiledPage => !isPageFailure(res)));
      await Promise.all(compiled.map((res, j) => ctx.limit(async () => {
        const p = batch[j];
        const key = ownKeys.get(p) ?? keyOf(p);
        if (isPageFailure(res)) {
          errors.set(p, res);
          opts.onPageFailed?.(res);
          // A limit's failure depends on the machine's load: the page is compiled again next time.
          if (!isCacheableFailure(res)) return;
          const entry = { failure: res, deps: { ...await pageDeps(p, texts[j], snapshot, { missing: true }), ...made[j].deps } };
          await cache.putFailure(key, entry);
          failures.set(p, { ...entry, cacheKey: key });
          return;
        }
        const entry: CacheEntry = { page: res, deps: { ...await pageDeps(p, texts[j], snapshot), ...made[j].deps } };
        await cache.put(key, entry);
        bodies.remember(key, res, entry.deps);
        const record = { cacheKey: key, summary: summarize(res, entry.deps) };
        records.set(p, record);
        llms.add(record, res);
      })));
      compiledSoFar += batch.length;
      // While the sandboxes compile, this process mostly waits on them, and its heap grows with
      // what they send (V8 grows its limit well past what stays alive): a full collection every
      // so many pages keeps it near what it holds (builder docs/benchmarks.md, "Collections during the compile step").
      ctx.collect(batch.length);
      opts.onCompiled?.(compiledSoFar, misses.length);
      deadline.check();
      checkCpu((compiler?.cpuMs?.() ?? 0) - cpuAtStart, limits, misses.length);
    }
  };
  let compiledCount: number;
  let staticCount: number;
  try {
    const compiling = compileAll(order);
    // An edit waits here for its sandbox: meanwhile the memory its `llms-full.txt` files will be
    // written into is made ready. Not for larger builds, whose compile step is their memory's peak.
    if (order.length > 0 && order.length < BATCH) llms.start();
    await compiling;
    // A twin takes its first copy's result when that compiled and the twin's imports, resolved
    // from its own folder, are the same files (cache/page-deps.ts depsHoldAt); otherwise it
    // compiles on its own.
    const alone: string[] = [];
    for (const [twin, first] of twins) {
      const record = records.get(first);
      const same = record !== undefined && (Object.keys(record.summary.deps).length === 0
        || await depsHoldAt(record.summary.deps, twin, Buffer.from(await snapshot.read(twin)).toString('utf8'), snapshot));
      if (same) records.set(twin, { cacheKey: record.cacheKey, summary: relocate(record.summary, twin, contentRoot) });
      else {
        alone.push(twin);
        // Its first copy holds the key: the twin's own result is kept beside it.
        if (record) ownKeys.set(twin, copyCacheKey(keyOf(twin), twin));
      }
    }
    await compileAll(alone);
    compiledCount = order.length + alone.length;
    staticCount = (compiler?.staticPages?.() ?? 0) - staticAtStart;
  } finally {
    search.compiled();
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
  return { compiled: compiledCount, staticPages: staticCount, records, errors, failures, failed };
}

/**
 * Runs one leased build and reports on it: heartbeats while it builds, builds and publishes the
 * site into the site's store, reports page changes and the final result. A user error (bad
 * config, limits) is final; anything else is reported as retryable. Shared by the worker (a
 * claimed job, cloned from its remote) and the CI entry (a CI deployment, built from the checkout).
 */
import { build, type BuildSource, type PageUpsert } from '../build.ts';
import type { Compiler } from '../compile/index.ts';
import type { LinkChecker } from '../links/link-check.ts';
import type { PageMemory } from '../state/page-bodies.ts';
import type { BuildProgress } from '../progress/progress-reporter.ts';
import { BuilderError, userError } from '../errors.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { BuildResult, PageFailure } from '../types.ts';
import { BuildLogSender } from './build-log-sender.ts';
import { readCommitInfo } from './commit-info.ts';
import { LeaseLostError, MAX_PAGE_RECORD_BYTES, PAGE_FIELD_LIMITS, MAX_WARNING_LENGTH, MAX_WARNINGS, pageRecordBytes, pageTooLarge, type BuildJob, type ControlPlaneClient, type JobReport, type PageRecord } from './control-plane-client.ts';

export interface RunJobOptions {
  client: ControlPlaneClient;
  /** The site's store, already scoped to it (e.g. `prefixStore(s3, job.site.prefix)`). */
  store: ObjectStore;
  /** Where the repository comes from: the job's remote (worker) or a local checkout (CI). */
  source: BuildSource;
  compiler?: Compiler;
  /** Compiled pages kept across jobs (see `BuildOptions.pageMemory`). */
  pageMemory?: PageMemory;
  /** Link-check results kept across jobs (see `BuildOptions.linkChecker`). */
  linkChecker?: LinkChecker;
  /** Observes phases (clone, compile, publish), e.g. for logs or crash tests. */
  onPhase?(phase: string, job: BuildJob): void;
  /** Progress of the build's steps and compiled pages (the CI command shows it). */
  progress?: BuildProgress;
  /** Sees the final report just before it is sent. */
  onReport?(report: JobReport): void;
  /** Time between two requests of the live build log (default 500 ms, build-log-sender.ts). */
  logIntervalMs?: number;
  /** Aborted when the run must stop: the job is handed back instead of reported. */
  signal?: AbortSignal;
}

/**
 * New or changed pages as the pages API takes them.
 *
 * @throws BuilderError `page_too_large` (user) naming the page's file, for a page the pages API
 *   cannot store: the build fails before anything is published, and is not retried.
 */
function records(upserts: readonly PageUpsert[]): PageRecord[] {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  return upserts.map(({ page, source, version }) => {
    // A URL or a version label the pages API cannot store is the customer's to shorten; a long
    // title or description is shortened here (the page itself shows it whole).
    if (page.urlPath.length > PAGE_FIELD_LIMITS.path) {
      throw userError('invalid_path', `Unexpected URL path of ${page.urlPath.length} characters; expected at most ${PAGE_FIELD_LIMITS.path}: use a shorter file path`, { file: page.sourcePath });
    }
    if (version.length > PAGE_FIELD_LIMITS.version) {
      throw userError('invalid_config', `navigation: Unexpected version label of ${version.length} characters; expected at most ${PAGE_FIELD_LIMITS.version}`, { file: 'docs.json' });
    }
    const record: PageRecord = {
      path: page.urlPath, version, title: cut(page.title, PAGE_FIELD_LIMITS.title), description: cut(page.description ?? '', PAGE_FIELD_LIMITS.description),
      source_mdx: source, compiled_html: page.bodyHtml, search_text: page.searchText,
    };
    // Counted cheaply first (JSON takes at most 6 bytes a character): only a page that may be near the limit is measured.
    const chars = source.length + page.bodyHtml.length + page.searchText.length;
    if (chars * 6 > MAX_PAGE_RECORD_BYTES) {
      const bytes = pageRecordBytes(record);
      if (bytes > MAX_PAGE_RECORD_BYTES) throw pageTooLarge(page.sourcePath, bytes);
    }
    return record;
  });
}

/** The build's warnings as a report carries them: bounded in number and length, the rest counted. */
export function reportWarnings(warnings: readonly string[]): string[] {
  const cut = (w: string) => (w.length > MAX_WARNING_LENGTH ? `${w.slice(0, MAX_WARNING_LENGTH - 1)}…` : w);
  if (warnings.length <= MAX_WARNINGS) return warnings.map(cut);
  return [...warnings.slice(0, MAX_WARNINGS - 1).map(cut), `${warnings.length - MAX_WARNINGS + 1} more warnings not shown`];
}

const failureLine = (e: PageFailure) => `${[e.sourcePath, e.line, e.column].filter((v) => v !== undefined).join(':')}: ${e.message}`;

function failureMessage(result: BuildResult): string | undefined {
  if (!result.pagesFailed) return undefined;
  return result.errors.map(failureLine).join('\n');
}

export async function runJob(job: BuildJob, opts: RunJobOptions): Promise<'reported' | 'lease_lost' | 'released'> {
  const { client } = opts;
  let lost = false;
  let released: Promise<'released'> | undefined;
  // Stopping: hand the job back now; the build's own outcome is then never reported or published.
  const onAbort = () => { lost = true; released = client.release(job).then(() => 'released' as const, () => 'released' as const); };
  if (opts.signal?.aborted) onAbort(); else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const beat = setInterval(() => {
    client.heartbeat(job).catch((err) => { if (err instanceof LeaseLostError) lost = true; });
  }, Math.max(1000, Math.floor(job.lease_ms / 3)));
  // The live build log: steps as they end, failed pages as they are known (the final report's log replaces it).
  const started = performance.now();
  const log = new BuildLogSender((lines) => client.log(job, lines), { intervalMs: opts.logIntervalMs, onLeaseLost: () => { lost = true; } });
  log.add('step clone: started');
  // Removed in `finally`: a long-lived signal (a CI run's, a worker's) must not collect one per job.
  let onAborted: (() => void) | undefined;
  try {
    opts.onPhase?.('clone', job);
    const aborted = new Promise<'aborted'>((resolve) => {
      if (opts.signal?.aborted) resolve('aborted');
      else { onAborted = () => resolve('aborted'); opts.signal?.addEventListener('abort', onAborted, { once: true }); }
    });
    const building = build({
      source: opts.source,
      store: opts.store,
      siteUrl: job.site.url,
      customCss: job.features?.custom_css === true,
      ...(job.features?.reader_access ? { readerAccess: job.features.reader_access } : {}),
      compiler: opts.compiler,
      pageMemory: opts.pageMemory,
      linkChecker: opts.linkChecker,
      // api.openapi by URL: downloaded by the control plane, which refuses non-public addresses.
      fetchUrl: (url) => client.fetchDocument(job, url),
      onStep: (step) => {
        opts.progress?.step(step);
        log.add(`step ${step}: done at ${Math.round(performance.now() - started)} ms`);
        if (step === 'clone') opts.onPhase?.('compile', job);
      },
      onCompiled: (done, total) => opts.progress?.compiled(done, total),
      onPageFailed: (failure) => log.add(`error: ${failureLine(failure)}`),
      onPages: async (changes) => {
        if (lost) throw new LeaseLostError();
        opts.onPhase?.('publish', job);
        // A batch at a time: a cold build's pages are never all held at once.
        for await (const batch of changes.upserted()) await client.pages(job, records(batch), []);
        await client.pages(job, [], changes.removed.map((r) => r.urlPath));
      },
    });
    building.catch(() => undefined); // once abandoned, its failure is nobody's to report
    const result = await Promise.race([building, aborted]);
    if (result === 'aborted') return released ?? 'released';
    if (released) return released;
    if (lost) return 'lease_lost';
    const commit = await readCommitInfo(opts.source, result.commit);
    const report: JobReport = {
      status: 'deployed', commit_sha: result.commit ?? null,
      ...(commit ? { commit_message: commit.message, commit_author: commit.author } : {}),
      pages_total: result.pagesTotal, pages_success: result.pagesSuccess, pages_failed: result.pagesFailed,
      ...(result.pagesFailed ? { error: failureMessage(result) } : {}),
      ...(result.warnings.length ? { warnings: reportWarnings(result.warnings) } : {}),
      stats: { compiled: result.compiled, uploaded: result.uploaded, deleted: result.deleted, timings: result.timings as Record<string, number> },
      ...(result.moved ? { redirects_added: result.moved } : {}),
    };
    opts.onReport?.(report);
    await log.close();
    await client.complete(job, report);
    return 'reported';
  } catch (err) {
    if (released) return released;
    if (err instanceof LeaseLostError || lost) return 'lease_lost';
    const user = err instanceof BuilderError && err.kind === 'user';
    const report: JobReport = {
      status: 'failed', retryable: !user,
      error: user ? (err as BuilderError).toString() : `Build failed on the platform's side; it will be retried (${(err as Error).message})`,
    };
    opts.onReport?.(report);
    await log.close();
    await client.complete(job, report).catch((e) => { if (!(e instanceof LeaseLostError)) throw e; });
    return 'reported';
  } finally {
    clearInterval(beat);
    log.stop();
    opts.signal?.removeEventListener('abort', onAbort);
    if (onAborted) opts.signal?.removeEventListener('abort', onAborted);
  }
}

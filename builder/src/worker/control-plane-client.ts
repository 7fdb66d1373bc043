/**
 * The worker's side of the control plane's internal build API. The worker holds a worker
 * secret (to claim) and, per job, a build token scoped to that one deployment; no database
 * or platform credentials.
 */
import { appError, userError } from '../errors.ts';

export interface Job {
  deployment_id: string;
  fencing: number;
  token: string;
  lease_ms: number;
  commit_sha: string | null;
  project: { id: string; slug: string };
  source: { url: string; branch: string; token: string | null };
  site: { prefix: string; url: string };
  /** Plan features the build applies (absent from older control planes: none). */
  features?: { custom_css?: boolean };
  /** The job's object routes (relative to the control plane): the build publishes through them. */
  store: { url: string };
}

/** What reporting on a build needs: a claimed job, or a CI deployment (which has no `source`). */
export type BuildJob = Omit<Job, 'source' | 'store'>;

export interface PageRecord { path: string; title: string; description: string; source_mdx: string; compiled_html: string; search_text: string; version: string }

/** Most warnings a report carries, and the longest line: a site with thousands of broken links reports a count for the rest. */
export const MAX_WARNINGS = 100;
export const MAX_WARNING_LENGTH = 1000;

/** A build's final report, as sent to the control plane (which takes this same type). */
export interface JobReport {
  status: 'deployed' | 'failed';
  commit_sha?: string | null;
  pages_total?: number;
  pages_success?: number;
  pages_failed?: number;
  /** Shown to the customer when the deployment fails, or lists the pages that failed. */
  error?: string;
  /** What the build reported without failing (see `BuildResult.warnings`), at most {@link MAX_WARNINGS} lines. */
  warnings?: string[];
  /** A platform-side failure worth another attempt (network, storage). */
  retryable?: boolean;
  stats?: { compiled: number; uploaded: number; deleted: number; timings: Record<string, number> };
  /** Pages this deployment found renamed: their old URL paths now redirect to the new ones. */
  redirects_added?: Array<{ from: string; to: string }>;
}

/** Longest wait a claim asks the control plane for (it refuses longer ones). */
export const MAX_CLAIM_WAIT_MS = 30_000;
/** The header of a 204 whose claim waited the whole time asked (absent: poll after the interval). */
export const CLAIM_WAITED_HEADER = 'folio-claim-waited';

/** A claim's answer: the job, or none and whether the control plane waited for one. */
export interface ClaimResult { job?: Job; waited: boolean }

/** Thrown when the control plane says another worker holds the job now: stop, report nothing. */
export class LeaseLostError extends Error {
  constructor() { super('lease lost'); this.name = 'LeaseLostError'; }
}

/**
 * Calls of the internal build API. `workerSecret` is needed only to claim; a CI run, which
 * never claims, passes none and reports with its build token alone.
 */
export class ControlPlaneClient {
  private readonly baseUrl: string;
  private readonly workerSecret: string;
  constructor(baseUrl: string, workerSecret = '') {
    this.baseUrl = baseUrl;
    this.workerSecret = workerSecret;
  }

  private async post(path: string, token: string, body: unknown, signal: AbortSignal = AbortSignal.timeout(30_000)): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      throw appError('control_plane_unreachable', `The control plane did not answer ${path}`, err);
    }
    if (res.status === 409) throw new LeaseLostError();
    if (res.status >= 400) throw appError('control_plane_error', `The control plane answered ${res.status} to ${path}: ${await res.text()}`);
    return res;
  }

  /**
   * The next job, if any. With `waitMs` the control plane holds the claim until a job is runnable
   * or the wait ends (`waited`: claim again at once); `signal` ends a waiting claim (stopping).
   */
  async claim(workerId: string, opts: { waitMs?: number; signal?: AbortSignal } = {}): Promise<ClaimResult> {
    const waitMs = Math.min(MAX_CLAIM_WAIT_MS, Math.max(0, opts.waitMs ?? 0));
    const timeout = AbortSignal.timeout(waitMs + 30_000);
    const res = await this.post('/jobs/claim', this.workerSecret, { worker_id: workerId, ...(waitMs ? { wait_ms: waitMs } : {}) }, opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout);
    if (res.status === 204) {
      await res.body?.cancel();
      return { waited: res.headers.has(CLAIM_WAITED_HEADER) };
    }
    return { job: (await res.json()) as Job, waited: false };
  }

  async heartbeat(job: BuildJob): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/heartbeat`, job.token, { fencing: job.fencing });
  }

  async release(job: BuildJob): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/release`, job.token, { fencing: job.fencing });
  }

  /** Reports page changes in batches small enough for one request each. */
  async pages(job: BuildJob, upserts: PageRecord[], deletes: string[]): Promise<void> {
    const BATCH = 200;
    for (let i = 0; i < upserts.length; i += BATCH) {
      await this.post(`/jobs/${job.deployment_id}/pages`, job.token, { fencing: job.fencing, upserts: upserts.slice(i, i + BATCH), deletes: [] });
    }
    if (deletes.length) await this.post(`/jobs/${job.deployment_id}/pages`, job.token, { fencing: job.fencing, upserts: [], deletes });
  }

  /**
   * A document the site's docs.json names by URL, downloaded by the control plane's
   * address-checking fetcher. A refusal (private address, too large, no answer) is the
   * customer's to fix: a user error carrying the control plane's message.
   */
  async fetchDocument(job: BuildJob, url: string, field = 'api.openapi'): Promise<Uint8Array> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/v1/jobs/${job.deployment_id}/fetch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fencing: job.fencing, url, field }),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (err) {
      throw appError('control_plane_unreachable', 'The control plane did not answer /fetch', err);
    }
    if (res.status === 409) throw new LeaseLostError();
    if (res.status === 400 || res.status === 413) {
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      throw userError('invalid_openapi', body.message ?? `${field}: could not download ${url}`);
    }
    if (res.status >= 400) throw appError('control_plane_error', `The control plane answered ${res.status} to /fetch: ${await res.text()}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  async complete(job: BuildJob, report: JobReport): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/complete`, job.token, { fencing: job.fencing, ...report });
  }
}

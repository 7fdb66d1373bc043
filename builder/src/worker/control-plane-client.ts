/**
 * The worker's side of the control plane's internal build API. The worker holds a worker
 * secret (to claim) and, per job, a build token scoped to that one deployment; no database
 * or platform credentials.
 */
import { appError } from '../errors.ts';

export interface Job {
  deployment_id: string;
  fencing: number;
  token: string;
  lease_ms: number;
  commit_sha: string | null;
  project: { id: string; slug: string };
  source: { url: string; branch: string; token: string | null };
  site: { prefix: string; url: string };
  /** The job's object routes (relative to the control plane): the build publishes through them. */
  store: { url: string };
}

/** What reporting on a build needs: a claimed job, or a CI deployment (which has no `source`). */
export type BuildJob = Omit<Job, 'source' | 'store'>;

export interface PageRecord { path: string; title: string; description: string; source_mdx: string; compiled_html: string; search_text: string; version: string }

/** A build's final report, as sent to the control plane (which takes this same type). */
export interface JobReport {
  status: 'deployed' | 'failed';
  commit_sha?: string | null;
  pages_total?: number;
  pages_success?: number;
  pages_failed?: number;
  /** Shown to the customer when the deployment fails, or lists the pages that failed. */
  error?: string;
  /** A platform-side failure worth another attempt (network, storage). */
  retryable?: boolean;
  stats?: { compiled: number; uploaded: number; deleted: number; timings: Record<string, number> };
}

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

  private async post(path: string, token: string, body: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw appError('control_plane_unreachable', `The control plane did not answer ${path}`, err);
    }
    if (res.status === 409) throw new LeaseLostError();
    if (res.status >= 400) throw appError('control_plane_error', `The control plane answered ${res.status} to ${path}: ${await res.text()}`);
    return res;
  }

  /** The next job, or undefined when none is waiting. */
  async claim(workerId: string): Promise<Job | undefined> {
    const res = await this.post('/jobs/claim', this.workerSecret, { worker_id: workerId });
    return res.status === 204 ? undefined : ((await res.json()) as Job);
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

  async complete(job: BuildJob, report: JobReport): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/complete`, job.token, { fencing: job.fencing, ...report });
  }
}

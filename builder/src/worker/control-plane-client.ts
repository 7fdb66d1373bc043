/**
 * The worker's side of the control plane's internal build API. The worker holds a worker
 * secret (to claim) and, per job, a build token scoped to that one deployment; no database
 * or platform credentials. The requests and answers are defined once, in protocol.ts.
 */
import { appError, LeaseLostError, userError, type BuilderError } from '../errors.ts';
import { MAX_PAGE_RECORD_BYTES, pageRecordTooLarge } from '../sandbox/page-output.ts';
import {
  CLAIM_WAITED_HEADER, MAX_CLAIM_WAIT_MS, MAX_PAGES_PER_REPORT, MAX_PAGES_REPORT_BYTES, MAX_WARNING_LENGTH, MAX_WARNINGS, PAGE_FIELD_LIMITS,
  type BuildJob, type ClaimRequest, type CompleteRequest, type FetchRequest, type Job, type JobReport, type LeaseRequest, type LogRequest, type PageRecord,
} from './protocol.ts';

/**
 * Bytes of JSON one page of a page report may take (its source, HTML and search text together):
 * the control plane stores a page as one database document, which MongoDB limits to 16 MiB. A
 * larger page fails as a page when it is compiled; the report checks again before sending.
 */
export { MAX_PAGE_RECORD_BYTES };
export {
  CLAIM_WAITED_HEADER, MAX_CLAIM_WAIT_MS, MAX_PAGES_PER_REPORT, MAX_PAGES_REPORT_BYTES, MAX_WARNING_LENGTH, MAX_WARNINGS, PAGE_FIELD_LIMITS,
  type BuildJob, type Job, type JobReport, type PageRecord,
};

/** Bytes of a page as a page report carries it. */
export const pageRecordBytes = (record: PageRecord): number => Buffer.byteLength(JSON.stringify(record));

/** A claim's answer: the job, or none and whether the control plane waited for one. */
export interface ClaimResult { job?: Job; waited: boolean }

export { LeaseLostError };

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

  private async post(path: string, token: string, body: unknown, signal: AbortSignal = AbortSignal.timeout(30_000), customerStatuses: readonly number[] = []): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      throw appError('control_plane_unreachable', `The control plane did not answer ${path}`, err);
    }
    if (res.status === 409) throw new LeaseLostError();
    // A refusal the customer's content caused (a page too large to store): final, never retried.
    if (customerStatuses.includes(res.status)) {
      const answer = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
      throw userError(answer.error ?? 'page_too_large', answer.message ?? `The control plane refused ${path} (${res.status})`);
    }
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
    const request: ClaimRequest = { worker_id: workerId, ...(waitMs ? { wait_ms: waitMs } : {}) };
    const res = await this.post('/jobs/claim', this.workerSecret, request, opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout);
    if (res.status === 204) {
      await res.body?.cancel();
      return { waited: res.headers.has(CLAIM_WAITED_HEADER) };
    }
    return { job: (await res.json()) as Job, waited: false };
  }

  async heartbeat(job: BuildJob): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/heartbeat`, job.token, { fencing: job.fencing } satisfies LeaseRequest);
  }

  /** Appends `lines` (at most 100, protocol.ts) to the deployment's live build log; see build-log-sender.ts. */
  async log(job: BuildJob, lines: string[]): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/log`, job.token, { fencing: job.fencing, lines } satisfies LogRequest, AbortSignal.timeout(10_000));
  }

  async release(job: BuildJob): Promise<void> {
    await this.post(`/jobs/${job.deployment_id}/release`, job.token, { fencing: job.fencing } satisfies LeaseRequest);
  }

  /**
   * Reports page changes in requests under the control plane's limits: at most
   * {@link MAX_PAGES_PER_REPORT} pages and {@link MAX_PAGES_REPORT_BYTES} bytes each.
   *
   * @throws BuilderError `page_too_large` (user) for a page over {@link MAX_PAGE_RECORD_BYTES},
   *   before anything is sent, or when the control plane answers 413 (a page it cannot store).
   */
  async pages(job: BuildJob, upserts: PageRecord[], deletes: string[]): Promise<void> {
    const path = `/jobs/${job.deployment_id}/pages`;
    const send = (records: string[], deleted: string[]) => this.post(path, job.token,
      `{"fencing":${job.fencing},"upserts":[${records.join(',')}],"deletes":${JSON.stringify(deleted)}}`, undefined, [413]);
    const texts = upserts.map((record) => {
      const text = JSON.stringify(record);
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_PAGE_RECORD_BYTES) throw pageTooLarge(record.path, bytes);
      return { text, bytes };
    });
    let batch: string[] = [];
    let size = 0;
    for (const { text, bytes } of texts) {
      // The envelope (fencing, commas, empty deletes) is well under a kilobyte.
      if (batch.length && (batch.length >= MAX_PAGES_PER_REPORT || size + bytes + 1024 > MAX_PAGES_REPORT_BYTES)) {
        await send(batch, []);
        batch = [];
        size = 0;
      }
      batch.push(text);
      size += bytes + 1;
    }
    if (batch.length) await send(batch, []);
    if (deletes.length) await send([], deletes);
  }

  /**
   * A document the site's docs.json names by URL, downloaded by the control plane's
   * address-checking fetcher. A refusal (private address, too large, no answer) is the
   * customer's to fix: a user error carrying the control plane's message.
   */
  async fetchDocument(job: BuildJob, url: string, field: FetchRequest['field'] = 'api.openapi'): Promise<Uint8Array> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/v1/jobs/${job.deployment_id}/fetch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fencing: job.fencing, url, field } satisfies FetchRequest),
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
    await this.post(`/jobs/${job.deployment_id}/complete`, job.token, { fencing: job.fencing, ...report } satisfies CompleteRequest);
  }
}

/** The customer's error for a page too large for the pages API; `where` names the page. */
export function pageTooLarge(where: string, bytes: number): BuilderError {
  return userError('page_too_large', pageRecordTooLarge(bytes), { file: where });
}

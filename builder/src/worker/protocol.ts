/**
 * The internal build API between builder workers and the control plane, as one set of zod
 * schemas: the control plane validates every request body with them, and the worker's client
 * (control-plane-client.ts) speaks the types inferred from them, so the two sides cannot drift
 * apart. The control plane imports this module; the builder never imports the control plane.
 *
 *   POST /internal/v1/jobs/claim           {@link claimRequest}  → 200 {@link Job} | 204
 *   POST /internal/v1/jobs/:id/heartbeat   {@link leaseRequest}  → 204
 *   POST /internal/v1/jobs/:id/release     {@link leaseRequest}  → 204
 *   POST /internal/v1/jobs/:id/log         {@link logRequest}    → 204
 *   POST /internal/v1/jobs/:id/pages       {@link pagesRequest}  → 204 | 413 page_too_large
 *   POST /internal/v1/jobs/:id/fetch       {@link fetchRequest}  → 200 the document's bytes
 *   POST /internal/v1/jobs/:id/complete    {@link completeRequest} → 204
 */
import { z } from 'zod';

/** Longest wait a claim asks the control plane for (it refuses longer ones). */
export const MAX_CLAIM_WAIT_MS = 30_000;
/** The header of a 204 whose claim waited the whole time asked (absent: poll after the interval). */
export const CLAIM_WAITED_HEADER = 'folio-claim-waited';

/** Bytes of JSON one page report request carries at most (the control plane's body limit for it). */
export const MAX_PAGES_REPORT_BYTES = 32 * 1024 * 1024;
/** Pages one page report request carries at most (the control plane accepts up to {@link MAX_PAGES_ACCEPTED}). */
export const MAX_PAGES_PER_REPORT = 200;
/** Pages the control plane accepts in one page report request. */
export const MAX_PAGES_ACCEPTED = 500;
/** URL paths one page report request may delete. */
export const MAX_PAGE_DELETES = 10_000;

/** Longest title, description, URL path and version label of a page the pages API stores (it refuses longer ones with 400). */
export const PAGE_FIELD_LIMITS = { title: 1000, description: 5000, path: 1000, version: 100 } as const;

/** Most warnings a report carries, and the longest line: a site with thousands of broken links reports a count for the rest. */
export const MAX_WARNINGS = 100;
export const MAX_WARNING_LENGTH = 1000;

/** Most lines one log request carries (a worker sends them batched, a few requests a second at most), and the longest line. */
export const MAX_LOG_LINES_PER_REQUEST = 100;
export const MAX_LOG_LINE_LENGTH = 2000;

/** The lease generation a request speaks for: a superseded one is answered 409 `lease_lost`. */
export const fencing = z.number().int().min(1);

const waitRule = { error: `must be a whole number of milliseconds from 0 to ${MAX_CLAIM_WAIT_MS}` };

/** `POST /jobs/claim` (worker secret): who asks, and how long the control plane may hold the claim for a job (default 0: answer at once). */
export const claimRequest = z.object({
  worker_id: z.string().min(1).max(200),
  wait_ms: z.number(waitRule).int(waitRule).min(0, waitRule).max(MAX_CLAIM_WAIT_MS, waitRule).default(0),
});
export type ClaimRequest = z.input<typeof claimRequest>;

/** A claimed job: the 200 answer of `POST /jobs/claim`. */
export const jobSchema = z.object({
  deployment_id: z.string(),
  fencing: z.number().int(),
  /** The build token: scoped to this one deployment, it authenticates every other call. */
  token: z.string(),
  lease_ms: z.number(),
  commit_sha: z.string().nullable(),
  project: z.object({ id: z.string(), slug: z.string() }),
  source: z.object({ url: z.string(), branch: z.string(), token: z.string().nullable() }),
  site: z.object({ prefix: z.string(), url: z.string() }),
  /** Plan features the build applies (absent from older control planes: none). */
  features: z.object({
    custom_css: z.boolean().optional(),
    /** Reader authentication is on: the secret the audiences' prefixes derive from (access/audiences.ts). */
    reader_access: z.object({ secret: z.string().min(16).max(200) }).optional(),
  }).optional(),
  /** The job's object routes (relative to the control plane): the build publishes through them. */
  store: z.object({ url: z.string() }),
});
export type Job = z.infer<typeof jobSchema>;

/** What reporting on a build needs: a claimed job, or a CI deployment (which has no `source`). */
export type BuildJob = Omit<Job, 'source' | 'store'>;

/** `POST /jobs/:id/heartbeat` and `/release` (build token). */
export const leaseRequest = z.object({ fencing });
export type LeaseRequest = z.input<typeof leaseRequest>;

/**
 * `POST /jobs/:id/log` (build token): build log lines as the build runs (steps as they end,
 * failed pages as they are known), appended to the deployment's live log. The final report's log
 * replaces them when the build completes.
 */
export const logRequest = z.strictObject({
  fencing,
  lines: z.array(z.string().max(MAX_LOG_LINE_LENGTH, { error: `Unexpected line too long; expected at most ${MAX_LOG_LINE_LENGTH} characters` }))
    .min(1, { error: 'Unexpected empty list; expected at least one line' })
    .max(MAX_LOG_LINES_PER_REQUEST, { error: `Unexpected list too long; expected at most ${MAX_LOG_LINES_PER_REQUEST} lines a request` }),
});
export type LogRequest = z.input<typeof logRequest>;

/** One page of a page report, as the pages API stores it. */
export const pageRecordSchema = z.strictObject({
  path: z.string().min(1).max(PAGE_FIELD_LIMITS.path),
  title: z.string().max(PAGE_FIELD_LIMITS.title),
  description: z.string().max(PAGE_FIELD_LIMITS.description),
  source_mdx: z.string(),
  compiled_html: z.string(),
  search_text: z.string(),
  // The content version label (docs.json `navigation.versions`; the default version is `latest`).
  version: z.string().min(1).max(PAGE_FIELD_LIMITS.version).default('latest'),
});
export type PageRecord = z.infer<typeof pageRecordSchema>;

/** `POST /jobs/:id/pages` (build token): pages changed and URL paths deleted. */
export const pagesRequest = z.strictObject({
  fencing,
  upserts: z.array(pageRecordSchema).max(MAX_PAGES_ACCEPTED).default([]),
  deletes: z.array(z.string()).max(MAX_PAGE_DELETES).default([]),
});
export type PagesRequest = z.input<typeof pagesRequest>;

/** `POST /jobs/:id/fetch` (build token): a document the site's docs.json names by URL. */
export const fetchRequest = z.strictObject({ fencing, url: z.string().min(1).max(2000), field: z.enum(['api.openapi']) });
export type FetchRequest = z.input<typeof fetchRequest>;

const jobReportShape = {
  status: z.enum(['deployed', 'failed']),
  commit_sha: z.string().regex(/^[0-9a-f]{40}$/).nullable().optional(),
  /** The first line of the built commit's message (`commit_author`: `Name <email>`), when the source is a Git repository. */
  commit_message: z.string().max(300).optional(),
  commit_author: z.string().max(300).optional(),
  pages_total: z.number().int().min(0).optional(),
  pages_success: z.number().int().min(0).optional(),
  pages_failed: z.number().int().min(0).optional(),
  /** Shown to the customer when the deployment fails, or lists the pages that failed. */
  error: z.string().max(20_000).optional(),
  /** A platform-side failure worth another attempt (network, storage). */
  retryable: z.boolean().optional(),
  /** What the build reported without failing (see `BuildResult.warnings`), at most {@link MAX_WARNINGS} lines. */
  warnings: z.array(z.string().max(MAX_WARNING_LENGTH)).max(MAX_WARNINGS).optional(),
  stats: z.object({ compiled: z.number().int(), uploaded: z.number().int(), deleted: z.number().int(), timings: z.record(z.string(), z.number()) }).optional(),
  /** Pages this deployment found renamed: their old URL paths now redirect to the new ones. */
  redirects_added: z.array(z.strictObject({ from: z.string().min(1).max(2000), to: z.string().min(1).max(2000) })).max(10_000).optional(),
};

/** A build's final report, as sent to the control plane (which takes this same type). */
export const jobReportSchema = z.strictObject(jobReportShape);
export type JobReport = z.infer<typeof jobReportSchema>;

/** `POST /jobs/:id/complete` (build token): the report with the lease's fencing. */
export const completeRequest = z.strictObject({ fencing, ...jobReportShape });
export type CompleteRequest = z.input<typeof completeRequest>;

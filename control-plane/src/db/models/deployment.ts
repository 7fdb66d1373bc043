import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType, type QueryFilter } from 'mongoose';

export const DEPLOYMENT_STATUSES = ['queued', 'building', 'deployed', 'failed'] as const;

/** One sync of a project's repository (spec 2.2). */
export const deploymentSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  project_id: { type: String, required: true },
  status: { type: String, enum: DEPLOYMENT_STATUSES, default: 'queued' },
  commit_sha: { type: String, default: null },
  started_at: { type: Date, default: () => new Date() },
  finished_at: { type: Date, default: null },
  pages_total: { type: Number, default: null },
  pages_success: { type: Number, default: null },
  pages_failed: { type: Number, default: null },
  error: { type: String, default: null },
  /** What the author should fix but did not stop the deployment (mapped docs.json keys, broken links), one line each. */
  warnings: { type: [String], default: undefined },
  /** The branch built: the project's synced branch for a production deployment, the previewed branch for a preview (null on records from before branches were kept). */
  branch: { type: String, default: null },
  /** The host label of a preview deployment (db/models/preview.ts); null for a production deployment. */
  preview_label: { type: String, default: null },
  /** Where a preview deployment is served; null for a production deployment. */
  preview_url: { type: String, default: null },
  /** What queued it: manual (API), push (managed repo), webhook (own repo), ci (builder in customer CI). */
  trigger: { type: String, enum: ['manual', 'api', 'push', 'webhook', 'ci'], default: 'manual' },
  /** Queue bookkeeping, never exposed: the worker holding the lease, until when, and the fencing token. */
  lease_owner: { type: String, default: null },
  lease_expires_at: { type: Date, default: null },
  fencing: { type: Number, default: 0 },
  attempts: { type: Number, default: 0 },
  next_attempt_at: { type: Date, default: () => new Date(0) },
  /** Build even when the commit is already live: a manual trigger asked for it (deploy/claim-job.ts). */
  force: { type: Boolean, default: false },
  /**
   * Whether the build published the site per audience (reader sign-in was on when it was claimed,
   * sites/reader-auth/reader-access-job.ts); null when not known (a CI build, an older record).
   * The site server serves a gated site's public prefix only from a build where it is true.
   */
  reader_access: { type: Boolean, default: null },
  /** When the current (or last) lease was granted: build durations are measured from it. */
  claimed_at: { type: Date, default: null },
  /** SHA-256 of the build token handed to the current lease holder. */
  token_hash: { type: String, default: null },
  token_expires_at: { type: Date, default: null },
  /** Build statistics the worker reported (MDX compiled, objects uploaded and deleted, step timings). */
  stats: { type: Schema.Types.Mixed, default: null },
  /** Pages the build found renamed, `[{ from, to }]` URL paths: each old URL now redirects to the new one. */
  redirects_added: { type: Schema.Types.Mixed, default: null },
  /** The build log kept with the deployment (deploy/build-log.ts): steps, warnings, failed pages; bounded (500 lines, 64 KB). */
  log: { type: [String], default: undefined },
  /** `{ sha, message, author }` of the commit built: its subject line and `Name <email>`, read from the managed repository when first shown (dashboard/commit-info.ts); stale once `commit_sha` moves on. */
  commit_info: { type: Schema.Types.Mixed, default: null },
  /**
   * The project's organization while the deployment is queued or building, null once it ended:
   * a claim reads one organization's open deployments by it (deploy/queue-heads.ts).
   */
  queue_org: { type: String, default: null },
}, { versionKey: false });
deploymentSchema.index({ project_id: 1, started_at: -1 });
deploymentSchema.index({ status: 1, next_attempt_at: 1 });
deploymentSchema.index({ queue_org: 1, status: 1, started_at: 1 });
deploymentSchema.index({ status: 1, lease_expires_at: 1 });
/**
 * At most one fresh queued deployment per site of a project (production, whose `preview_label`
 * is null, and each branch preview): the key that makes a trigger join the queued sync
 * atomically (deploy/queue.ts). A sync handed back or waiting for a retry is `queued` with a
 * fencing token above 0, outside the index, so re-queueing it never collides with a new one.
 */
export const FRESH_QUEUED_INDEX = 'one_fresh_queued_per_site';
/** The index's name before previews existed (per project only); dropped at start-up (models/index.ts). */
export const OLD_FRESH_QUEUED_INDEX = 'one_fresh_queued_per_project';
/** The documents the fresh-queued index holds. */
export const FRESH_QUEUED = { status: 'queued', fencing: 0 } as const;
deploymentSchema.index({ project_id: 1, preview_label: 1 }, { name: FRESH_QUEUED_INDEX, unique: true, partialFilterExpression: FRESH_QUEUED });

export type Deployment = InferSchemaType<typeof deploymentSchema> & { _id: string };

/** A query filter on deployments. */
export type DeploymentFilter = QueryFilter<Deployment>;

/**
 * The deployment queue, kept in the deployments collection.
 *
 * - Enqueue coalesces: a project has at most one fresh (never claimed) `queued` deployment per
 *   site (production, and each branch preview), held by a unique partial index, so concurrent
 *   triggers, pushes and webhooks join one deployment.
 *   A sync handed back or retried is `queued` again beside it (its fencing token is above 0);
 *   triggers join the oldest queued one.
 * - Claim (claim-job.ts: fair between organizations, the branch head at claim time, no build of a
 *   commit already live) hands a runnable job to a worker with a lease (LEASE_MS, renewed by
 *   heartbeats), a fencing token (incremented on every claim) and a build token (random, only its
 *   hash stored) scoped to that one deployment. One build per project at a time (previews
 *   included: they take turns with production rather than compete with it for builders).
 * - A worker that dies loses its lease when it runs out; the next claim takes the job over with a
 *   higher fencing token, so the dead (or stalled) worker's late reports are rejected.
 * - Retryable failures go back to `queued` with exponential backoff; after MAX_ATTEMPTS the
 *   deployment fails with the reason.
 * - A CI deployment (`trigger: 'ci'`) is built by the customer's CI from its own checkout: it is
 *   created already leased to that run, and no worker can take it over (it has no checkout), so
 *   a lost lease, a hand-back or a failure ends it `failed`.
 * - An attempt that does not end deployed (failed, retried, handed back, taken over) has its
 *   writes undone before the deployment reads failed or is handed out again (publish-rollback.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { JobReport } from '@folio/builder';
import type { Deployment, Models } from '../db/models/index.ts';
import type { DeploymentFilter } from '../db/models/deployment.ts';
import { AppError } from '../errors.ts';
import { appendLog, buildLog } from './build-log.ts';
import { logDeploymentOutcome } from './deployment-outcome.ts';
import { discardAttempt, revokeAndRestore } from './publish-rollback.ts';
import { queueEvents } from './queue-events.ts';
import { markQueued, markUnblocked } from './queue-heads.ts';

/** Default lease; the control plane passes env.BUILD_LEASE_MS. */
export const LEASE_MS = 30_000;
export const MAX_ATTEMPTS = 3;
/** A build token outlives any build the limits allow, and no more. */
export const TOKEN_TTL_MS = 45 * 60_000;
const BACKOFF_BASE_MS = 2_000;

export type Trigger = 'manual' | 'api' | 'push' | 'webhook' | 'ci';

/** Triggers a person or a program asked for by hand: they build even when the commit is already live. */
const FORCED: ReadonlySet<Trigger> = new Set(['manual', 'api']);

/** The preview a deployment builds: the branch, its host label and its URL (previews/previews.ts). */
export interface PreviewTarget { branch: string; label: string; url: string }

/** Only the hash of a build token is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** How often an enqueue retries after losing an insert race (real MongoDB can report one as E11000). */
const ENQUEUE_ATTEMPTS = 5;

/**
 * Queues a sync of the project, or joins the one already queued (the oldest, when a retried
 * sync waits for its backoff beside a fresh one) and sets its commit to `commitSha` when given:
 * the newest commit wins. One conditional upsert does both, and the unique partial index
 * `one_fresh_queued_per_site` (deployment.ts) lets only one of any number of concurrent
 * triggers insert; the losers, when the database reports the race as a duplicate key, retry
 * and join the winner's deployment.
 */
export async function enqueueDeployment(m: Models, projectId: string, opts: { commitSha?: string; trigger: Trigger; preview?: PreviewTarget; branch?: string }, now: Date): Promise<Deployment> {
  // The organization keeps the queue's head in step (queue-heads.ts): the claim reads the queue by it.
  const project = await m.Project.findById(projectId, { github_branch: 1, org_id: 1 }).lean();
  const branch = opts.preview?.branch ?? opts.branch ?? project?.github_branch ?? 'main';
  for (let attempt = 1; ; attempt++) {
    try {
      const d = await m.Deployment.findOneAndUpdate(
        // Production and each preview queue apart: a push to a branch never joins production's sync.
        { project_id: projectId, status: 'queued', preview_label: opts.preview?.label ?? null },
        {
          // A trigger by hand asks for a build even when the commit is already live (see claim-job.ts).
          ...(opts.commitSha || FORCED.has(opts.trigger) ? { $set: { ...(opts.commitSha ? { commit_sha: opts.commitSha } : {}), ...(FORCED.has(opts.trigger) ? { force: true } : {}) } } : {}),
          $setOnInsert: {
            _id: randomUUID(), trigger: opts.trigger, started_at: now, next_attempt_at: now, fencing: 0, attempts: 0,
            branch, preview_label: opts.preview?.label ?? null, preview_url: opts.preview?.url ?? null, queue_org: project?.org_id ?? null,
            ...(opts.commitSha ? {} : { commit_sha: null }),
            ...(FORCED.has(opts.trigger) ? {} : { force: false }),
          },
        },
        { upsert: true, returnDocument: 'after', sort: { started_at: 1, _id: 1 } },
      ).lean() as Deployment;
      await markQueued(m, d.queue_org, d.next_attempt_at ?? now, d.started_at ?? now);
      queueEvents(m).emit('queued', { deploymentId: d._id });
      return d;
    } catch (err) {
      if ((err as { code?: unknown })?.code !== 11000 || attempt >= ENQUEUE_ATTEMPTS) throw err;
    }
  }
}

/** Why a deployment whose builders kept dying was failed (shown to the customer). */
export function poisonMessage(attempts: number): string {
  return `The builder stopped while building this deployment ${attempts} times (it crashed, ran out of memory or stopped responding); `
    + 'it is not retried again so that it cannot stop more builders. Trigger a new deployment to try again';
}

export interface ClaimedJob { deployment: Deployment; token: string }

/**
 * Creates a CI deployment of `commitSha`, already leased to `owner` (the CI run) with a build
 * token: status `building`, fencing 1. Throws 409 `conflict` while another build of the project
 * holds a lease (one build per project at a time).
 */
export async function startCiDeployment(m: Models, projectId: string, opts: { commitSha: string; owner: string }, now: Date, leaseMs = LEASE_MS): Promise<ClaimedJob> {
  const busy = await m.Deployment.exists({ project_id: projectId, status: 'building', lease_expires_at: { $gte: now } });
  if (busy) throw new AppError(409, 'conflict', 'Another build of this project is in progress; run the CI job again when it has finished');
  const token = `bt_${randomBytes(24).toString('base64url')}`;
  const project = await m.Project.findById(projectId, { github_branch: 1, org_id: 1 }).lean();
  const created = await m.Deployment.create({
    queue_org: project?.org_id ?? null,
    project_id: projectId, status: 'building', commit_sha: opts.commitSha, trigger: 'ci', started_at: now, branch: project?.github_branch ?? 'main',
    lease_owner: opts.owner, lease_expires_at: new Date(now.getTime() + leaseMs), fencing: 1, attempts: 1,
    token_hash: hashToken(token), token_expires_at: new Date(now.getTime() + TOKEN_TTL_MS),
  });
  await m.Project.updateOne({ _id: projectId }, { $set: { status: 'building' } });
  queueEvents(m).emit('queued', { deploymentId: created._id });
  return { deployment: created.toObject() as Deployment, token };
}

/** The lease a worker proves with its deployment id, fencing token and build token. */
export interface LeaseProof { deploymentId: string; fencing: number; token: string }

function leaseFilter(proof: LeaseProof, now: Date): DeploymentFilter {
  return { _id: proof.deploymentId, fencing: proof.fencing, status: 'building', token_hash: hashToken(proof.token), token_expires_at: { $gt: now } };
}

const leaseLost = () => new AppError(409, 'lease_lost', 'This build no longer holds the deployment\'s lease; another worker has taken it over or it has finished');

/** Loads the deployment a build token belongs to, checking the lease; throws 409 `lease_lost`. */
export async function verifyLease(m: Models, proof: LeaseProof, now: Date): Promise<Deployment> {
  const d = await m.Deployment.findOne(leaseFilter(proof, now)).lean();
  if (!d) throw leaseLost();
  return d as Deployment;
}

/**
 * Checks that `token` is the build token of deployment `deploymentId` while it builds, before a
 * request's body is read; throws 409 `lease_lost` (the answer a stale worker expects). The fencing
 * token, in the body, is checked after by `verifyLease` and the like.
 */
export async function verifyBuildToken(m: Models, deploymentId: string, token: string, now: Date): Promise<void> {
  const d = await m.Deployment.exists({ _id: deploymentId, status: 'building', token_hash: hashToken(token), token_expires_at: { $gt: now } });
  if (!d) throw leaseLost();
}

/** Extends the lease; throws 409 `lease_lost` for a stale worker. */
export async function heartbeat(m: Models, proof: LeaseProof, now: Date, leaseMs = LEASE_MS): Promise<void> {
  const d = await m.Deployment.findOneAndUpdate(leaseFilter(proof, now), { $set: { lease_expires_at: new Date(now.getTime() + leaseMs) } }).lean();
  if (!d) throw leaseLost();
}

/**
 * Appends `lines` to the live log of the deployment a worker builds (bounded: build-log.ts) and
 * tells the deployment's watchers; throws 409 `lease_lost` for a stale worker. The final
 * report's log replaces it when the build completes ({@link finish}).
 */
export async function appendBuildLog(m: Models, proof: LeaseProof, lines: readonly string[], now: Date): Promise<void> {
  const d = await verifyLease(m, proof, now);
  // The worker sends its batches one after another, so nothing appends between this read and the write.
  const done = await m.Deployment.findOneAndUpdate(leaseFilter(proof, now), { $set: { log: appendLog(d.log ?? [], lines) } }).lean();
  if (!done) throw leaseLost();
  queueEvents(m).emit('logged', { deploymentId: d._id, projectId: d.project_id });
}

/**
 * Gives the job back untouched (a worker shutting down): it is queued again, the attempt not
 * counted. A CI deployment cannot be rebuilt elsewhere, so handing it back (a cancelled CI run)
 * fails it.
 */
export async function releaseJob(m: Models, proof: LeaseProof, now: Date): Promise<void> {
  const current = await verifyLease(m, proof, now);
  if (current.trigger === 'ci') {
    await finish(m, current, { status: 'failed', error: 'The CI run was stopped before it finished' }, now, leaseFilter(proof, now));
    return;
  }
  // Whatever it published is undone before the job is queued again (publish-rollback.ts).
  const held = await revokeAndRestore(m, current, leaseFilter(proof, now), now);
  const d = await m.Deployment.findOneAndUpdate(held, {
    $set: { status: 'queued', lease_owner: null, lease_expires_at: null, token_hash: null, next_attempt_at: now },
    $inc: { attempts: -1 },
  }).lean();
  if (!d) throw leaseLost();
  await markQueued(m, d.queue_org, now, d.started_at ?? now);
  queueEvents(m).emit('released', { deploymentId: d._id });
}

/** The worker's report: the wire shape is defined once, beside the client that sends it. */
export type { JobReport };

/** Records a worker's final report, or re-queues a retryable failure with backoff. */
export async function completeJob(m: Models, proof: LeaseProof, report: JobReport, now: Date): Promise<Deployment> {
  const d = await verifyLease(m, proof, now);
  if (report.status === 'failed' && report.retryable && d.trigger !== 'ci' && (d.attempts ?? 0) < MAX_ATTEMPTS) {
    const delay = BACKOFF_BASE_MS * 2 ** ((d.attempts ?? 1) - 1);
    // The attempt's writes are undone before the retry can be claimed (publish-rollback.ts).
    const held = await revokeAndRestore(m, d, leaseFilter(proof, now), now);
    const requeued = await m.Deployment.findOneAndUpdate(held, {
      $set: { status: 'queued', lease_owner: null, lease_expires_at: null, token_hash: null, next_attempt_at: new Date(now.getTime() + delay), error: report.error ?? null },
    }, { returnDocument: 'after' }).lean();
    if (!requeued) throw leaseLost();
    await markQueued(m, requeued.queue_org, requeued.next_attempt_at ?? now, requeued.started_at ?? now);
    queueEvents(m).emit('retried', { deploymentId: requeued._id, runnableAt: requeued.next_attempt_at ?? undefined });
    return requeued as Deployment;
  }
  return finish(m, d, report, now, leaseFilter(proof, now));
}

/** Ends a deployment with `report` (conditionally on `filter`) and sets its project's status. */
export async function finish(m: Models, d: Deployment, report: JobReport, now: Date, filter: DeploymentFilter, reason?: 'poison' | 'ci_lost'): Promise<Deployment> {
  // A failed attempt's writes are undone before anyone is told it failed (publish-rollback.ts).
  if (report.status === 'failed') filter = await revokeAndRestore(m, d, filter, now);
  const done = await m.Deployment.findOneAndUpdate(filter, {
    $set: {
      status: report.status, finished_at: now, error: report.error ?? (report.status === 'failed' ? 'Build failed' : null),
      ...(report.commit_sha ? { commit_sha: report.commit_sha } : {}),
      ...(report.stats ? { stats: report.stats } : {}),
      ...(report.warnings?.length ? { warnings: report.warnings } : {}),
      ...(report.redirects_added ? { redirects_added: report.redirects_added } : {}),
      ...(report.pages_total !== undefined ? { pages_total: report.pages_total, pages_success: report.pages_success ?? 0, pages_failed: report.pages_failed ?? 0 } : {}),
      log: buildLog(report),
      // The builder read the commit (own repositories too): kept with the sha it describes (dashboard/commit-info.ts).
      ...(report.commit_message !== undefined && report.commit_author !== undefined && (report.commit_sha ?? d.commit_sha)
        ? { commit_info: { sha: report.commit_sha ?? d.commit_sha, message: report.commit_message, author: report.commit_author } } : {}),
      lease_owner: null, lease_expires_at: null, token_hash: null, token_expires_at: null, queue_org: null,
    },
  }, { returnDocument: 'after' }).lean();
  if (!done) throw leaseLost();
  // The project's next deployment may run now.
  await markUnblocked(m, d.queue_org, now);
  // Its rollback copies are dropped in the background: the answer does not wait for them.
  if (report.status === 'deployed') discardAttempt(m, done._id);
  queueEvents(m).emit('finished', { deploymentId: done._id, projectId: done.project_id, status: report.status, buildMs: d.claimed_at ? now.getTime() - new Date(d.claimed_at).getTime() : undefined, reason });
  // A preview's outcome is its own: the project's status and last deployment describe production.
  if (!d.preview_label) {
    // `failed` only when nothing is live: a failed deployment leaves the last deployed site served.
    const live = report.status === 'deployed' || Boolean(await m.Deployment.exists({ project_id: d.project_id, preview_label: null, status: 'deployed' }));
    await m.Project.updateOne({ _id: d.project_id }, {
      $set: report.status === 'deployed' ? { status: 'active', last_deploy_at: now } : { status: live ? 'active' : 'failed' },
    });
  }
  logDeploymentOutcome(done as Deployment);
  return done as Deployment;
}

/** The building deployment a build token belongs to (for Git fetches by workers), if valid now. */
export async function deploymentForToken(m: Models, token: string, now: Date): Promise<Deployment | undefined> {
  const d = await m.Deployment.findOne({ token_hash: hashToken(token), status: 'building', token_expires_at: { $gt: now } }).lean();
  return (d as Deployment | null) ?? undefined;
}

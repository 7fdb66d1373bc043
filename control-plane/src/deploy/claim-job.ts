/**
 * Claiming a job: which runnable deployment a worker gets, and with what.
 *
 * - Runnable: queued and past its backoff, or building with an expired lease (its builder died or
 *   stalled: taken over with a higher fencing token). One build per project at a time.
 * - Order: builds whose lease ran out first, then fair between organizations (fair-share.ts; the
 *   tags and each organization's queue head persisted in queue-heads.ts), oldest first within one.
 * - Newest commit: a queued sync of a managed repository builds the branch's head at claim time
 *   (`headOf`), not the commit of the push that queued it, and records it; pushes that arrive
 *   while it waits join it (queue.ts). If that commit is already live, the sync ends `deployed`
 *   at once without a build (the site already shows it): so a commit is never built twice for a
 *   project because of quick pushes. A manual trigger (`force`) always builds.
 * - Poison: a building job whose lease ran out `MAX_ATTEMPTS` times (its builders died on it) is
 *   failed with a clear message instead of taking down one builder after another.
 * - Rollback: a job claimed again (taken over, retried) has its earlier attempts' writes undone
 *   before it is handed out (publish-rollback.ts); a poison or lost CI job's, before it fails.
 */
import { randomBytes } from 'node:crypto';
import type { Deployment, Models, Project } from '../db/models/index.ts';
import type { PlanId } from '../db/models/organization.ts';
import { PLAN_WEIGHTS } from './fair-share.ts';
import { chargeOrg, HEADS_PER_CLAIM, readyOrgs, refreshHead, runnableOf } from './queue-heads.ts';
import { restoreBeforeAttempt } from './publish-rollback.ts';
import { queueEvents } from './queue-events.ts';
import { finish, hashToken, LEASE_MS, MAX_ATTEMPTS, poisonMessage, TOKEN_TTL_MS, type ClaimedJob } from './queue.ts';
import type { DeploymentFilter } from '../db/models/deployment.ts';

export interface ClaimOptions {
  /**
   * The newest commit of the branch a deployment builds (the synced branch, or a preview's), when
   * the control plane can tell (managed repositories). `project` is the deployment's project as
   * the claim read it, so the answer needs no lookup of its own.
   */
  headOf?(projectId: string, branch: string | null, project?: ClaimProject): Promise<string | undefined>;
}

/**
 * The fields of a candidate's project a claim reads once for all its uses: the organization (fair
 * share), the repository and branch (`headOf`), and what the job handed to the worker names (its
 * site's address, where its source is fetched from).
 */
const PROJECT_FIELDS = { org_id: 1, slug: 1, custom_domain: 1, github_repo: 1, github_branch: 1, github_repo_id: 1, github_installation_id: 1 } as const;
export type ClaimProject = Pick<Project, '_id' | 'org_id' | 'slug' | 'custom_domain' | 'github_repo' | 'github_branch' | 'github_repo_id' | 'github_installation_id'>;

/** A claimed job with the project it builds (read by the claim: see {@link ClaimProject}). */
export interface ClaimedProjectJob extends ClaimedJob { project: ClaimProject | undefined }

type Candidate = Deployment & { org: string };

/** Runnable deployments of one organization a claim reads at once, oldest first. */
const CANDIDATES_PER_ORG = 4;

/** Builds whose lease ran out (their builder died or stalled), earliest first: taken over before queued work. */
async function expiredLeases(m: Models, now: Date): Promise<Candidate[]> {
  const list = await m.Deployment.find({ status: 'building', lease_expires_at: { $lt: now } }).sort({ lease_expires_at: 1, _id: 1 }).limit(HEADS_PER_CLAIM).lean() as Deployment[];
  return list.map((d) => ({ ...d, org: d.queue_org ?? '' }));
}

/** Ends a queued sync whose target commit is already live, without a build; true when it did. */
async function skipIfLive(m: Models, c: Deployment, target: string, now: Date): Promise<boolean> {
  // Live on the same site: a preview's commit is not production's, and production's not a preview's.
  const live = await m.Deployment.findOne({ project_id: c.project_id, status: 'deployed', preview_label: c.preview_label ?? null }).sort({ finished_at: -1 }).lean();
  if (!live || live.commit_sha !== target) return false;
  const done = await m.Deployment.findOneAndUpdate({ _id: c._id, status: 'queued', fencing: c.fencing }, {
    $set: {
      status: 'deployed', commit_sha: target, finished_at: now, error: null, queue_org: null,
      pages_total: live.pages_total, pages_success: live.pages_success, pages_failed: live.pages_failed,
      ...(live.warnings?.length ? { warnings: live.warnings } : {}),
      // The site is the live build's, so is what it was built for (sites/reader-auth/live-build.ts).
      reader_access: live.reader_access ?? null,
    },
  }).lean();
  if (done) queueEvents(m).emit('skipped', { deploymentId: c._id });
  return Boolean(done);
}

/**
 * Claims the next runnable job for `workerId` (see the module comment), or returns undefined when
 * none is runnable. A bounded number of indexed reads whatever the queue's length: the builds
 * whose lease ran out and the organizations to serve (queue-heads.ts), then the runnable
 * deployments of the first organization that has one.
 */
export async function claimJob(m: Models, workerId: string, now: Date, leaseMs = LEASE_MS, opts: ClaimOptions = {}): Promise<ClaimedProjectJob | undefined> {
  const events = queueEvents(m);
  const [expired, { orgs }] = await Promise.all([expiredLeases(m, now), readyOrgs(m, now)]);
  for (const c of expired) {
    const job = await tryClaim(m, c, workerId, now, leaseMs, opts);
    if (job) return job;
  }
  for (const head of orgs) {
    let job: ClaimedProjectJob | undefined;
    // Read again while other claims take the ones read first (each round, they took some).
    for (let list = await runnableOf(m, head._id, now, CANDIDATES_PER_ORG); list.length && !job; list = job ? [] : await runnableOf(m, head._id, now, CANDIDATES_PER_ORG)) {
      for (const c of list) if ((job = await tryClaim(m, { ...c, org: head._id }, workerId, now, leaseMs, opts))) break;
    }
    // Its head moves on: to its next oldest deployment, or past it while nothing there can run.
    await refreshHead(m, head, now, !job);
    if (job) return job;
  }
  events.emit('polled', { workerId, got: false });
  return undefined;
}

/** Tries to claim `c` for `workerId`: the job, or undefined when it is gone, skipped or failed here. */
async function tryClaim(m: Models, c: Candidate, workerId: string, now: Date, leaseMs: number, opts: ClaimOptions): Promise<ClaimedProjectJob | undefined> {
  const events = queueEvents(m);
  const takeover = c.status === 'building';
  if (takeover && await m.Deployment.exists({ project_id: c.project_id, status: 'building', lease_expires_at: { $gte: now } })) return undefined;
  if (takeover && c.trigger === 'ci') {
    await finish(m, c, { status: 'failed', error: 'The CI run stopped reporting before it finished; run the CI job again' }, now, { _id: c._id, fencing: c.fencing, status: 'building' } as DeploymentFilter, 'ci_lost');
    return undefined;
  }
  if (takeover && (c.attempts ?? 0) >= MAX_ATTEMPTS) {
    // A poison job: whatever it does stops its builder (a crash, an out-of-memory kill, a
    // hang). Another attempt would take down one more builder, so it ends here.
    await finish(m, c, { status: 'failed', error: poisonMessage(c.attempts ?? MAX_ATTEMPTS) }, now, { _id: c._id, fencing: c.fencing, status: 'building' } as DeploymentFilter, 'poison');
    return undefined;
  }
  const project = await m.Project.findById(c.project_id, PROJECT_FIELDS).lean() as ClaimProject | null ?? undefined;
  let target = c.commit_sha ?? null;
  if (!takeover) target = (await opts.headOf?.(c.project_id, c.preview_label ? c.branch ?? null : null, project)) ?? target;
  if (!takeover && c.fencing === 0 && !c.force && target && await skipIfLive(m, c, target, now)) return undefined;
  const token = `bt_${randomBytes(24).toString('base64url')}`;
  // The organization's plan weighs the claim in the fair share: read beside the claim itself.
  const [claimed, org] = await Promise.all([
    m.Deployment.findOneAndUpdate(
      { _id: c._id, status: c.status, fencing: c.fencing },
      {
        $set: {
          status: 'building', lease_owner: workerId, lease_expires_at: new Date(now.getTime() + leaseMs), claimed_at: now,
          token_hash: hashToken(token), token_expires_at: new Date(now.getTime() + TOKEN_TTL_MS),
          // Each attempt's live log starts empty (the worker sends it as it builds).
          log: [],
          ...(target ? { commit_sha: target } : {}),
        },
        $inc: { fencing: 1, attempts: 1 },
      },
      { returnDocument: 'after' },
    ).lean(),
    c.org ? m.Organization.findById(c.org, { plan: 1 }).lean() : null,
  ]);
  if (!claimed) return undefined;
  // What an earlier attempt left published (its builder died mid-publish, a restore cut short)
  // is undone before this attempt starts: the claim's fencing already shuts the old one out.
  if (c.fencing > 0) await restoreBeforeAttempt(m, claimed as Deployment, now, leaseMs);
  await Promise.all([
    c.org ? chargeOrg(m, c.org, PLAN_WEIGHTS[org?.plan as PlanId] ?? 1) : undefined,
    claimed.preview_label ? undefined : m.Project.updateOne({ _id: claimed.project_id }, { $set: { status: 'building' } }),
  ]);
  const since = takeover ? new Date(c.lease_expires_at!) : c.fencing === 0 ? new Date(c.started_at) : new Date(c.next_attempt_at ?? c.started_at);
  events.emit('claimed', { deploymentId: claimed._id, projectId: claimed.project_id, preview: Boolean(claimed.preview_label), workerId, waitMs: Math.max(0, now.getTime() - since.getTime()), takeover });
  events.emit('polled', { workerId, got: true });
  return { deployment: claimed as Deployment, token, project };
}

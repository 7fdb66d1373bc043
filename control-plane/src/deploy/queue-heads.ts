/**
 * The queue's heads: one document per organization (db/models/claim-head.ts) with its fair-share
 * finish tag and the earliest time it may have runnable work, and one with the virtual time. A
 * claim reads the few organizations to serve from them with indexed queries, then only those
 * organizations' open deployments: its cost does not grow with the length of the queue.
 *
 * Kept in step by the queue's transitions, each with one conditional update:
 * - queued, retried, handed back: `ready_at` lowered to when it may run (`$min`), `seq` counted;
 * - a build ended: `ready_at` lowered to now (the project's next deployment may run), `seq` counted;
 * - a claim that finds nothing runnable in an organization moves its `ready_at` to the earliest
 *   time something there may run (a backoff, a lease running out), or removes it when nothing is
 *   queued, only if no enqueue or finish came in since it looked (`seq`).
 * `ready_at` is only ever too early, never too late: too early costs one look, too late would
 * starve an organization.
 *
 * The fair-share tags live here too (persisted: a restart keeps them; every control plane sharing
 * the database sees the same): see {@link chargeOrg}.
 */
import type { Deployment, Models } from '../db/models/index.ts';
import { FAIR_SHARE_CLOCK_ID, type ClaimHead } from '../db/models/claim-head.ts';

/** Organizations a claim considers per look (those with the smallest start tags). */
export const HEADS_PER_CLAIM = 6;
/** How often a charge retries after another control plane charged the same organization first. */
const CHARGE_ATTEMPTS = 20;

/** Records that `org` has a deployment queued at `startedAt`, runnable from `runnableAt`. */
export async function markQueued(m: Models, org: string | null | undefined, runnableAt: Date, startedAt: Date): Promise<void> {
  if (!org) return;
  await m.ClaimHead.updateOne({ _id: org }, { $min: { ready_at: runnableAt, since: startedAt }, $inc: { seq: 1 }, $setOnInsert: { finish: 0 } }, { upsert: true });
}

/**
 * Records that a build of `org` ended: its project's next deployment may run now. Counted in
 * `seq` like an enqueue, so a claim that looked just before cannot move the head past it.
 */
export async function markUnblocked(m: Models, org: string | null | undefined, now: Date): Promise<void> {
  if (!org) return;
  await m.ClaimHead.updateOne({ _id: org, ready_at: { $exists: true } }, { $min: { ready_at: now }, $inc: { seq: 1 } });
}

/** The virtual time and the organizations that may have runnable work, in the order a claim tries them. */
export async function readyOrgs(m: Models, now: Date): Promise<{ virtual: number; orgs: ClaimHead[] }> {
  const clock = await m.ClaimHead.findById(FAIR_SHARE_CLOCK_ID, { finish: 1 }).lean();
  const virtual = clock?.finish ?? 0;
  // Start tag max(V, F): every organization with F ≤ V starts at V (longest waiting first), then the rest by F.
  const [atVirtual, ahead] = await Promise.all([
    m.ClaimHead.find({ ready_at: { $lte: now }, finish: { $lte: virtual } }).sort({ since: 1, _id: 1 }).limit(HEADS_PER_CLAIM).lean(),
    m.ClaimHead.find({ ready_at: { $lte: now }, finish: { $gt: virtual } }).sort({ finish: 1, since: 1, _id: 1 }).limit(HEADS_PER_CLAIM).lean(),
  ]);
  return { virtual, orgs: [...atVirtual, ...ahead].slice(0, HEADS_PER_CLAIM) as ClaimHead[] };
}

/**
 * Moves `head` on after a claim looked in its organization: `since` to its oldest queued
 * deployment, `ready_at` to when the next may run (after a claim that found nothing runnable:
 * its earliest backoff ending, or, when every runnable one waits for its project's build, the
 * earliest lease there running out; a finish lowers it sooner); both removed when nothing is
 * queued. Done only if no enqueue came in since `head` was read.
 */
export async function refreshHead(m: Models, head: Pick<ClaimHead, '_id' | 'seq'>, now: Date, foundNothing: boolean): Promise<void> {
  const org = head._id;
  const [oldest, soonest, lease] = await Promise.all([
    m.Deployment.findOne({ queue_org: org, status: 'queued' }, { started_at: 1 }).sort({ started_at: 1 }).lean(),
    m.Deployment.findOne({ queue_org: org, status: 'queued' }, { next_attempt_at: 1 }).sort({ next_attempt_at: 1 }).lean(),
    foundNothing ? m.Deployment.findOne({ queue_org: org, status: 'building', lease_expires_at: { $gte: now } }, { lease_expires_at: 1 }).sort({ lease_expires_at: 1 }).lean() : null,
  ]);
  const filter = { _id: org, seq: head.seq };
  if (!oldest || !soonest) {
    await m.ClaimHead.updateOne(filter, { $unset: { ready_at: 1, since: 1 } });
    return;
  }
  let next = new Date(soonest.next_attempt_at ?? now);
  // Nothing was runnable when the claim looked (or other claims took it first): past it only
  // while every runnable deployment waits for its project's build.
  if (foundNothing && next <= now && !await runnableNow(m, org, now)) next = lease?.lease_expires_at ? new Date(lease.lease_expires_at) : new Date(now.getTime() + 1);
  await m.ClaimHead.updateOne(filter, { $set: { ready_at: next, since: oldest.started_at } });
}

/**
 * The runnable queued deployments of `org`, oldest first, leaving out projects another build
 * holds a lease on (one build per project at a time): two indexed reads of that organization's
 * open deployments only.
 */
export async function runnableOf(m: Models, org: string, now: Date, limit: number): Promise<Deployment[]> {
  const busy = await m.Deployment.distinct('project_id', { queue_org: org, status: 'building', lease_expires_at: { $gte: now } }) as string[];
  return m.Deployment.find({
    queue_org: org, status: 'queued', next_attempt_at: { $lte: now },
    ...(busy.length ? { project_id: { $nin: busy } } : {}),
  }).sort({ started_at: 1, _id: 1 }).limit(limit).lean() as Promise<Deployment[]>;
}

const runnableNow = async (m: Models, org: string, now: Date) => (await runnableOf(m, org, now, 1)).length > 0;

/**
 * Charges `org` one build at `weight` (start-time fair queuing, fair-share.ts): S = max(V, F),
 * then F = S + 1 / weight and V = max(V, S). F moves by a conditional update on the value read,
 * so two control planes charging the same organization at once both count; V only grows (`$max`).
 */
export async function chargeOrg(m: Models, org: string, weight: number): Promise<void> {
  for (let attempt = 1; attempt <= CHARGE_ATTEMPTS; attempt++) {
    const [clock, head] = await Promise.all([
      m.ClaimHead.findById(FAIR_SHARE_CLOCK_ID, { finish: 1 }).lean(),
      m.ClaimHead.findById(org, { finish: 1 }).lean(),
    ]);
    const before = head?.finish ?? 0;
    const start = Math.max(clock?.finish ?? 0, before);
    let moved;
    try {
      moved = await m.ClaimHead.updateOne({ _id: org, finish: before }, { $set: { finish: start + 1 / Math.max(weight, 1e-6) } }, { upsert: !head });
    } catch (err) {
      // Another control plane created the organization's head first: read it again.
      if ((err as { code?: unknown })?.code === 11000) continue;
      throw err;
    }
    if (moved.modifiedCount + moved.upsertedCount === 0) continue;
    await m.ClaimHead.updateOne({ _id: FAIR_SHARE_CLOCK_ID }, { $max: { finish: start } }, { upsert: true });
    return;
  }
}

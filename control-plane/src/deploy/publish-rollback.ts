/**
 * Rollback journaling: a deployment's attempt that does not end `deployed` leaves the bucket as
 * it found it. Builds publish incrementally (a page's file is replaced as it is uploaded), so
 * without this a failure after the first upload (a time limit, an output limit, storage errors,
 * a builder that died mid-publish) would leave what it had uploaded live, and the builder's state
 * describing it.
 *
 * - Before the first write (PUT or DELETE) of a bucket key in an attempt, the job's object routes
 *   (build-api/ci-api.ts) call {@link preserveBeforeWrite}: the key's current object, if any, is copied
 *   (`ObjectStore.copy`: a hard link, a server-side copy) under `rollback/<deployment id>/`, which
 *   nothing serves, and the key is recorded in the journal (`PublishJournal`, unique per
 *   deployment and key). The copy is made first and the entry inserted after, so an entry always
 *   names a copy taken before any write of its key by the deployment: of concurrent first writes
 *   of one key, the one whose insert wins proceeds with its copy; the others drop theirs (each
 *   copies to a path of its own) and write after the entry exists.
 * - An attempt that ends `deployed` drops its copies and entries ({@link discardAttempt}), in the
 *   background: the completion's answer never waits for it, and a leftover is dropped by the
 *   sweep ({@link sweepPublishJournal}).
 * - An attempt that ends otherwise (failed, retried, handed back, its lease lost) is undone
 *   before anyone is told ({@link revokeAndRestore}, {@link restoreAttempt}): its build token is
 *   revoked first, so no new write starts; writes already in flight on this control plane are
 *   waited for; then every entry is undone (the preserved object copied back, or a key that did
 *   not exist deleted), and the copies and entries dropped. The builder's state prefix is
 *   journaled like the site's, so its manifest again describes what is live. Undoing is
 *   idempotent: a restore cut short (a crash) leaves the deployment `building` with its lease
 *   running out, and the claim that takes it over restores before handing it out (claim-job.ts).
 *
 * Upload grants (build-api/upload-grants.ts): a builder asks for a batch of keys at once and
 * sends the bytes straight to the store (a presigned S3 PUT, or the control plane's signed local
 * upload route), so a write can land after the token is revoked, until its grant expires. The
 * grants route therefore journals and preserves every key *before* it answers
 * ({@link preserveManyBeforeWrite}), and records on the deployment, with one conditional update per
 * batch that also proves the lease still holds, the latest expiry it handed out
 * ({@link noteGrants}: `grants_until`, never past the lease). A restore reads that time after
 * the revocation (no grant can be made after it) and waits until it has passed, plus
 * `GRANT_SETTLE_MS` for an upload the store accepted just before its grant expired, then undoes
 * the journal: whatever a grant could still write has landed by then, and is undone with the
 * rest. A restore before a takeover (the old lease ran out) rarely waits: grants end with the
 * lease they were made under.
 *
 * Several control-plane replicas: a write through the object routes in flight on another replica
 * when the token is revoked is not waited for (it passed the lease check before the revocation);
 * it can land after the restore. The same holds for a granted S3 upload that began before its
 * grant expired and is still streaming `GRANT_SETTLE_MS` later (a large object on a slow link).
 * One control plane (the default) waits for every write through it.
 */
import { randomBytes } from 'node:crypto';
import type { ObjectStore } from '@folio/builder';
import type { DeploymentFilter } from '../db/models/deployment.ts';
import type { Deployment, Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { logEvent } from '../log/structured-log.ts';
import { rollbackPrefix } from '../sites/bucket-prefixes.ts';

/**
 * How long an upload grant is usable at most (build-api/upload-grants.ts; less when the lease
 * ends sooner). Short, because a failed attempt's restore waits for its last grant to expire and
 * the builder's report of the failure waits for the restore (its client gives up after 30 s).
 */
export const MAX_GRANT_MS = 20_000;
/** How long after the last grant's expiry a restore still waits: an upload the store accepted just before it may still be arriving. */
export const GRANT_SETTLE_MS = 5_000;
/** How long a restore waits for this process's writes of the deployment still in flight. */
const SETTLE_MS = 120_000;
/** How long a failing attempt's lease is extended while its writes are undone. */
const RESTORE_LEASE_MS = 10 * 60_000;
/** Keys of one grant batch preserved at a time (copies in the store, inserts in the journal). */
const PRESERVE_CONCURRENCY = 16;
/** Journal entries older than this whose deployment has ended are dropped by the sweep. */
export const JOURNAL_MAX_AGE_MS = 24 * 60 * 60_000;

const stores = new WeakMap<Models, ObjectStore>();

/** Sets the store the journal's keys live in (the platform's site store); called once at start. */
export function usePublishRollback(m: Models, store: ObjectStore): void {
  stores.set(m, store);
}

function storeOf(m: Models): ObjectStore {
  const store = stores.get(m);
  if (!store) throw new Error('publish rollback: no store set (usePublishRollback)');
  return store;
}

/** Writes in flight per deployment on this process, and who waits for them to end. */
const inFlight = new Map<string, { count: number; idle: Array<() => void> }>();

/**
 * Counts a write of `deploymentId` in flight until the returned function is called. Called
 * before the write's lease check, so a restore that revoked the token first waits for every
 * write that may have passed the check.
 */
export function trackWrite(deploymentId: string): () => void {
  let entry = inFlight.get(deploymentId);
  if (!entry) inFlight.set(deploymentId, entry = { count: 0, idle: [] });
  entry.count++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    entry.count--;
    if (entry.count === 0) {
      inFlight.delete(deploymentId);
      for (const wake of entry.idle) wake();
    }
  };
}

/** Resolves when no write of `deploymentId` is in flight on this process (or after `SETTLE_MS`). */
async function writesSettled(deploymentId: string): Promise<void> {
  const entry = inFlight.get(deploymentId);
  if (!entry) return;
  let timer: NodeJS.Timeout | undefined;
  const settled = new Promise<boolean>((resolve) => { entry.idle.push(() => resolve(true)); });
  const late = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), SETTLE_MS); });
  if (!await Promise.race([settled, late])) {
    logEvent('error', 'deployment.rollback_unsettled', `deployment ${deploymentId}: ${entry.count} writes still in flight after ${SETTLE_MS / 1000} s; restoring anyway`, { deployment: deploymentId });
  }
  clearTimeout(timer);
}

const isDuplicate = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/**
 * Journals `key` (a bucket key) for the attempt of `d` before it is written or deleted, and
 * preserves the object it holds: once per deployment and key (a key journaled already is written
 * at once). See the module comment for why the copy comes before the entry.
 *
 * @throws AppError 503 `store_unavailable` when the object cannot be preserved: nothing is
 *   written (the build fails, is undone and retried).
 */
export async function preserveBeforeWrite(m: Models, d: Pick<Deployment, '_id' | 'fencing'>, key: string): Promise<void> {
  const store = storeOf(m);
  const copyKey = `${rollbackPrefix(d._id)}${randomBytes(6).toString('hex')}/${key}`;
  let hadPrevious: boolean;
  try {
    hadPrevious = await store.copy(key, copyKey);
  } catch (err) {
    throw new AppError(503, 'store_unavailable', `Could not preserve ${key} before replacing it; try again`, { cause: err });
  }
  try {
    await m.PublishJournal.create({ deployment_id: d._id, fencing: d.fencing ?? 0, key, had_previous: hadPrevious, copy_key: hadPrevious ? copyKey : null });
  } catch (err) {
    if (hadPrevious) await store.delete([copyKey]).catch(() => undefined);
    // Journaled already (an earlier write of the key, or a concurrent one that won the insert).
    if (!isDuplicate(err)) throw err;
  }
}

/**
 * {@link preserveBeforeWrite} for a batch of bucket keys about to be granted: keys the attempt
 * journaled already are skipped with one query, the others preserved `PRESERVE_CONCURRENCY` at a
 * time. Same errors.
 */
export async function preserveManyBeforeWrite(m: Models, d: Pick<Deployment, '_id' | 'fencing'>, keys: readonly string[]): Promise<void> {
  const journaled = await m.PublishJournal.find({ deployment_id: d._id, key: { $in: keys } }, { key: 1 }).lean();
  const done = new Set(journaled.map((e) => e.key));
  const fresh = [...new Set(keys)].filter((k) => !done.has(k));
  for (let i = 0; i < fresh.length; i += PRESERVE_CONCURRENCY) {
    await Promise.all(fresh.slice(i, i + PRESERVE_CONCURRENCY).map((key) => preserveBeforeWrite(m, d, key)));
  }
}

/**
 * Records that grants of the attempt `d` (as `verifyLease` read it) may be used until `until`,
 * and extends its lease to `leaseUntil` as a heartbeat would (a builder asking for grants is
 * alive; `until` is never past `leaseUntil`): both only grow, and only while the attempt still
 * holds its lease (same fencing, token not revoked nor expired). Resolves `false` when it no
 * longer does: no grant may be made. (`grants_until` is bookkeeping of this module, outside the
 * deployment schema: the update is not strict and the read below is raw.)
 */
export async function noteGrants(m: Models, d: Pick<Deployment, '_id' | 'fencing' | 'token_hash'>, until: Date, leaseUntil: Date, now: Date): Promise<boolean> {
  const held = { _id: d._id, fencing: d.fencing, status: 'building', token_hash: d.token_hash, token_expires_at: { $gt: now } } as DeploymentFilter;
  const res = await m.Deployment.updateOne(held, { $max: { grants_until: until, lease_expires_at: leaseUntil } } as never, { strict: false });
  return res.matchedCount === 1;
}

/** How long from `now` until every grant of `deploymentId` has expired and what it sent has arrived (module comment). */
async function grantsPendingMs(m: Models, deploymentId: string, now: Date): Promise<number> {
  const d = await m.Deployment.collection.findOne({ _id: deploymentId } as never, { projection: { grants_until: 1 } }) as { grants_until?: Date | null } | null;
  // Bounded by the longest a grant lives, should the clock have jumped back since it was made.
  return d?.grants_until ? Math.min(d.grants_until.getTime() + GRANT_SETTLE_MS - now.getTime(), MAX_GRANT_MS + GRANT_SETTLE_MS) : 0;
}

/**
 * Resolves once every grant of `deploymentId` has expired and what it sent has arrived, and this
 * process's writes of it in flight have ended.
 */
async function grantsSettled(m: Models, deploymentId: string, now: Date): Promise<void> {
  const wait = await grantsPendingMs(m, deploymentId, now);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await writesSettled(deploymentId);
}

/** Drops the rollback copies (every object under the deployment's rollback prefix) and journal entries of `deploymentId`. */
async function dropCopies(m: Models, store: ObjectStore, deploymentId: string): Promise<void> {
  const copies = await store.list(rollbackPrefix(deploymentId));
  if (copies.length) await store.delete(copies);
  await m.PublishJournal.deleteMany({ deployment_id: deploymentId });
}

/**
 * Undoes every write journaled for `deploymentId`: each preserved object copied back, each key
 * that did not exist before deleted; then drops the copies and entries. Waits first for this
 * process's writes of the deployment in flight. Idempotent (an entry whose copy is gone was
 * restored by an earlier run that stopped before dropping the entries). The caller has made sure
 * nothing writes for the deployment any more (revoked its token, or taken its lease over); its
 * grants are waited out first (`now`: the caller's clock, which the grants were dated by).
 * Returns the number of keys restored.
 */
export async function restoreAttempt(m: Models, deploymentId: string, now = new Date()): Promise<number> {
  await grantsSettled(m, deploymentId, now);
  const entries = await m.PublishJournal.find({ deployment_id: deploymentId }, { key: 1, had_previous: 1, copy_key: 1 }).lean();
  if (!entries.length) return 0;
  const store = storeOf(m);
  await Promise.all(entries.filter((e) => e.had_previous && e.copy_key).map((e) => store.copy(e.copy_key!, e.key)));
  const created = entries.filter((e) => !e.had_previous).map((e) => e.key);
  if (created.length) await store.delete(created);
  await dropCopies(m, store, deploymentId);
  logEvent('info', 'deployment.rolled_back', `deployment ${deploymentId}: restored ${entries.length} objects as they were before it`, { deployment: deploymentId, objects: entries.length });
  return entries.length;
}

/**
 * Undoes earlier attempts' writes of a job just claimed again (`claimed`: its new fencing), before
 * the claim answers. While it restores, the new lease is held for `RESTORE_LEASE_MS`, so no other
 * claim takes the job over meanwhile (a cold 10,000-page deploy journals ~40,000 objects); then
 * it is set to `leaseMs` from when the restore ended.
 */
export async function restoreBeforeAttempt(m: Models, claimed: Pick<Deployment, '_id' | 'fencing'>, now: Date, leaseMs: number): Promise<void> {
  await writesSettled(claimed._id);
  // Grants still usable are waited out below, with the lease held (the claim's own lease may be shorter than the wait).
  if (await grantsPendingMs(m, claimed._id, now) <= 0 && !await m.PublishJournal.exists({ deployment_id: claimed._id })) return;
  const started = Date.now();
  const held = { _id: claimed._id, fencing: claimed.fencing, status: 'building' } as DeploymentFilter;
  await m.Deployment.updateOne(held, { $set: { lease_expires_at: new Date(now.getTime() + RESTORE_LEASE_MS) } });
  await restoreAttempt(m, claimed._id, now);
  await m.Deployment.updateOne(held, { $set: { lease_expires_at: new Date(now.getTime() + (Date.now() - started) + leaseMs) } });
}

/**
 * Ends the attempt holding `filter` (a lease filter) without it publishing anything more, and
 * undoes its writes: revokes its build token (its object routes answer `lease_lost` from now),
 * then restores, holding the lease meanwhile. Returns the filter that still matches the deployment (same fencing, still
 * `building`) for the update that records the outcome; throws 409 `lease_lost` when `filter`
 * matched nothing.
 */
export async function revokeAndRestore(m: Models, d: Pick<Deployment, '_id'>, filter: DeploymentFilter, now: Date): Promise<DeploymentFilter> {
  // The lease is held through the restore (no other build of the project starts, no claim takes
  // it over); if this process stops, it runs out and the claim that takes the job over restores.
  const held = await m.Deployment.findOneAndUpdate(filter, { $set: { token_hash: null, lease_expires_at: new Date(now.getTime() + RESTORE_LEASE_MS) } }, { returnDocument: 'after', projection: { fencing: 1 } }).lean();
  if (!held) throw new AppError(409, 'lease_lost', 'This build no longer holds the deployment\'s lease; another worker has taken it over or it has finished');
  await restoreAttempt(m, d._id, now);
  return { _id: d._id, fencing: held.fencing, status: 'building' } as DeploymentFilter;
}

/** Drops a deployed attempt's copies and entries in the background (best effort: the sweep drops what is left). */
export function discardAttempt(m: Models, deploymentId: string): void {
  const store = stores.get(m);
  if (!store) return;
  dropCopies(m, store, deploymentId).catch((err: unknown) => {
    logEvent('error', 'deployment.rollback_discard_failed', `deployment ${deploymentId}: could not drop its rollback copies (${(err as Error).message}); the sweep will`, { deployment: deploymentId });
  });
}

/**
 * Drops the journal entries and copies older than `maxAgeMs` whose deployment has ended
 * (deployed, failed, or gone): what a discard that failed, or a process that stopped before it,
 * left. Entries of a deployment still queued or building are left to the claim that takes it
 * (it restores them). Returns the deployments cleaned.
 */
export async function sweepPublishJournal(m: Models, now: Date, maxAgeMs = JOURNAL_MAX_AGE_MS): Promise<number> {
  const store = stores.get(m);
  if (!store) return 0;
  const ids = await m.PublishJournal.distinct('deployment_id', { created_at: { $lt: new Date(now.getTime() - maxAgeMs) } }) as string[];
  if (!ids.length) return 0;
  const open = new Set((await m.Deployment.find({ _id: { $in: ids }, status: { $in: ['queued', 'building'] } }, { _id: 1 }).lean()).map((d) => d._id));
  const ended = ids.filter((id) => !open.has(id));
  for (const id of ended) await dropCopies(m, store, id);
  return ended.length;
}

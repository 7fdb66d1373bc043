/**
 * Claims that wait for work (long-poll): a worker's claim that finds nothing runnable may wait on
 * the control plane until something could have become runnable, instead of the worker polling
 * again after its interval. The control plane changes the queue itself, so it wakes the waiting
 * claims in-process from its queue's events (queue-events.ts): a deployment queued or handed
 * back, a build finished (the project's next deployment may run now, one build per project at a
 * time), a retried one's backoff over. It needs no change stream and works the same on the
 * embedded database and on MongoDB. With several control-plane replicas, a job queued on one does
 * not wake a claim waiting on another: that claim ends at its timeout and the worker claims again.
 * Nor does a lease running out send any event: a waiting claim wakes when the earliest lease runs
 * out ({@link msUntilLeaseEnds}), so a dead builder's job is taken over as soon as it can be.
 *
 * A woken claim only tries again; which worker gets a job is still decided by the one conditional
 * update of claim-job.ts, so two waiting workers never get the same job.
 */
import type { Models } from '../db/models/index.ts';
import { MAX_CLAIM_WAIT_MS } from '@folio/builder/worker-protocol';
import { queueEvents } from './queue-events.ts';

/** Most claims waiting at once on one control plane; past it a claim answers at once (the worker polls). */
export const MAX_WAITING_CLAIMS = 256;
/** Longest wait a claim may ask for (defined beside the worker's client, which asks). */
export { MAX_CLAIM_WAIT_MS } from '@folio/builder/worker-protocol';

export interface ClaimWaiters {
  /** Claims waiting now. */
  readonly size: number;
  /** Counts queue changes: take it before a claim attempt, pass it to `wait`, and no change in between is missed. */
  readonly generation: number;
  /**
   * Waits until the queue changed after `generation` (at once if it already has), `ms` passed or
   * `signal` aborted. Undefined, without waiting, when {@link MAX_WAITING_CLAIMS} are waiting.
   */
  wait(generation: number, ms: number, signal: AbortSignal): Promise<void> | undefined;
  /** Wakes every waiting claim (the queue changed). */
  wake(): void;
}

/** Waiting claims woken by the queue events of `m`, at most `max` at once (tests make small ones; the control plane uses {@link claimWaitersOf}). */
export function createClaimWaiters(m: Models, max: number): ClaimWaiters {
  const waiting = new Set<() => void>();
  let generation = 0;
  const wake = () => {
    generation++;
    for (const resolve of [...waiting]) resolve();
  };
  const events = queueEvents(m);
  events.on('queued', wake);
  events.on('released', wake);
  events.on('finished', wake);
  // A retried deployment is runnable once its backoff is over: wake the claims then.
  events.on('retried', ({ runnableAt }) => {
    if (!runnableAt) { wake(); return; }
    // Bounded: a claim waits no longer than this anyway, and then claims afresh.
    setTimeout(wake, Math.min(MAX_CLAIM_WAIT_MS, Math.max(0, runnableAt.getTime() - Date.now()))).unref();
  });
  return {
    get size() { return waiting.size; },
    get generation() { return generation; },
    wait(since, ms, signal) {
      if (since !== generation || signal.aborted) return Promise.resolve();
      if (waiting.size >= max) return undefined;
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        waiting.add(done);
      });
    },
    wake,
  };
}

/**
 * Milliseconds until the earliest live lease runs out (its job becomes runnable by a takeover),
 * or undefined when no build holds one.
 */
export async function msUntilLeaseEnds(m: Models, now: Date): Promise<number | undefined> {
  const next = await m.Deployment.findOne({ status: 'building', lease_expires_at: { $gte: now } }, { lease_expires_at: 1 }).sort({ lease_expires_at: 1 }).lean();
  // A claim takes over a lease strictly past its end: wake just after it.
  return next?.lease_expires_at ? new Date(next.lease_expires_at).getTime() - now.getTime() + 5 : undefined;
}

const byModels = new WeakMap<Models, ClaimWaiters>();

/** The waiting claims of the control plane that owns `m` (one set per set of models, as the queue's events). */
export function claimWaitersOf(m: Models): ClaimWaiters {
  let w = byModels.get(m);
  if (!w) { w = createClaimWaiters(m, MAX_WAITING_CLAIMS); byModels.set(m, w); }
  return w;
}

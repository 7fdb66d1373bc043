/**
 * What happens in the deployment queue, for whoever watches it (the metrics endpoint, outgoing
 * webhooks): one event
 * emitter per set of models, so two control planes in one process (tests) never mix their events.
 */
import { EventEmitter } from 'node:events';
import type { Models } from '../db/models/index.ts';

export interface QueueEventMap {
  /** A deployment was queued, or a trigger joined one already queued (outgoing webhooks dedupe). */
  queued: [{ deploymentId: string }];
  /** A worker claimed a job (of a preview when `preview`); `waitMs` since it became runnable; `takeover` when a dead builder's lease was taken over. */
  claimed: [{ deploymentId: string; projectId: string; preview: boolean; workerId: string; waitMs: number; takeover: boolean }];
  /** A deployment reached a final state; `buildMs` since its last claim (undefined when never claimed). */
  finished: [{ deploymentId: string; projectId: string; status: 'deployed' | 'failed'; buildMs?: number; reason?: 'poison' | 'ci_lost' }];
  /** The worker building a deployment sent log lines (its live log grew). */
  logged: [{ deploymentId: string; projectId: string }];
  /** A queued sync whose commit was already live ended without a build. */
  skipped: [{ deploymentId: string }];
  /** A retryable failure went back to the queue, runnable again at `runnableAt` (after its backoff). */
  retried: [{ deploymentId: string; runnableAt?: Date }];
  /** A worker handed a job back (it is stopping): the job is runnable again at once. */
  released: [{ deploymentId: string }];
  /** A claim call: `workerId` asked for work and got some or not. */
  polled: [{ workerId: string; got: boolean }];
}

const emitters = new WeakMap<Models, EventEmitter<QueueEventMap>>();

/** The queue's events for `m`. */
export function queueEvents(m: Models): EventEmitter<QueueEventMap> {
  let e = emitters.get(m);
  if (!e) { e = new EventEmitter<QueueEventMap>(); emitters.set(m, e); }
  return e;
}

/** A wait for a deployment's next change; `stop()` ends it early (its listeners removed). */
export interface DeploymentWatch { changed: Promise<void>; stop(): void }

/**
 * Watches deployment `deploymentId`: `changed` resolves when it changed state on this control
 * plane (claimed, finished, skipped, retried) or after `ms`, whichever comes first, so a watcher
 * re-reads it then instead of on a fixed poll alone (the timeout stays as the fallback for
 * changes made by another replica).
 */
export function watchDeployment(m: Models, deploymentId: string, ms: number): DeploymentWatch {
  const events = queueEvents(m);
  const names = ['claimed', 'finished', 'skipped', 'retried'] as const;
  let stop = () => {};
  const changed = new Promise<void>((resolve) => {
    const onEvent = (e: { deploymentId: string }) => { if (e.deploymentId === deploymentId) stop(); };
    const timer = setTimeout(() => stop(), ms);
    stop = () => {
      clearTimeout(timer);
      for (const n of names) events.off(n, onEvent);
      resolve();
    };
    for (const n of names) events.on(n, onEvent);
  });
  return { changed, stop: () => stop() };
}

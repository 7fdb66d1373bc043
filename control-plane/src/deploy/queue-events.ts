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
  /** A worker claimed a job; `waitMs` since it became runnable; `takeover` when a dead builder's lease was taken over. */
  claimed: [{ deploymentId: string; workerId: string; waitMs: number; takeover: boolean }];
  /** A deployment reached a final state; `buildMs` since its last claim (undefined when never claimed). */
  finished: [{ deploymentId: string; projectId: string; status: 'deployed' | 'failed'; buildMs?: number; reason?: 'poison' | 'ci_lost' }];
  /** A queued sync whose commit was already live ended without a build. */
  skipped: [{ deploymentId: string }];
  /** A retryable failure went back to the queue. */
  retried: [{ deploymentId: string }];
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

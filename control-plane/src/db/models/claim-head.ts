import { Schema } from 'mongoose';

/**
 * The deployment queue's head of one organization and its fair-share tag (deploy/queue-heads.ts),
 * so a claim finds the organization to serve without reading the queue. One more document, whose
 * `_id` is {@link FAIR_SHARE_CLOCK_ID}, holds the virtual time in `finish` (it has no `ready_at`,
 * so it never reads as an organization with work).
 */
export const claimHeadSchema = new Schema({
  /** The organization's id (or the clock's). */
  _id: { type: String, required: true },
  /** Start-time fair queuing finish tag F (the clock: the virtual time V). */
  finish: { type: Number, default: 0 },
  /**
   * Earliest time the organization may have a runnable deployment; absent when it has none
   * queued. Only ever too early (then a claim looks, finds nothing and moves it on), never too late.
   */
  ready_at: { type: Date },
  /** When its oldest queued deployment was queued (ties between organizations go to the longest waiting). */
  since: { type: Date },
  /** Counts enqueues: a claim that found no work moves `ready_at` on only if none came in meanwhile. */
  seq: { type: Number, default: 0 },
}, { versionKey: false });
claimHeadSchema.index({ ready_at: 1, finish: 1, since: 1 });

/** The `_id` of the document holding the virtual time. */
export const FAIR_SHARE_CLOCK_ID = '~clock';

export interface ClaimHead { _id: string; finish: number; ready_at?: Date | null; since?: Date | null; seq: number }

import { Schema } from 'mongoose';

/**
 * A push to a managed repository in progress (git/interrupted-pushes.ts): written before Git
 * moves any branch, removed once the push's deployments are queued. One left behind means the
 * process serving the push died in between; another process finishes its work.
 */
export const pushIntentSchema = new Schema({
  project_id: { type: String, required: true },
  /** Every branch with its commit before the push: what the push's deployments are compared with. */
  before: { type: Schema.Types.Mixed, required: true },
  started_at: { type: Date, required: true },
  // A project's first push has no branch before it: keep the empty `before` rather than drop it as
  // mongoose does with empty objects, so the record still says "nothing before" to the sweep.
}, { versionKey: false, minimize: false });
pushIntentSchema.index({ started_at: 1 });

export interface PushIntent { _id: string; project_id: string; before: Record<string, string>; started_at: Date }

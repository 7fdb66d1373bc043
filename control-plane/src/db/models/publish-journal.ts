import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * One bucket key a deployment's attempt wrote or deleted, recorded before the first write of that
 * key in the attempt (deploy/publish-rollback.ts): whether the key held an object then and, if
 * so, where that object was preserved (`rollback/<deployment id>/…`, which nothing serves). A
 * failed attempt is undone from these; a deployed one drops them. Unique per deployment and key:
 * of concurrent first writes of one key, one records it.
 */
export const publishJournalSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  deployment_id: { type: String, required: true },
  /** The fencing token of the attempt that wrote first (a zombie's entries carry an older one). */
  fencing: { type: Number, required: true },
  /** The bucket key written (`sites/<project id>/…`, `state/<project id>/…` or a preview's). */
  key: { type: String, required: true },
  /** True when the key held an object before the attempt wrote it: restored from `copy_key`. */
  had_previous: { type: Boolean, required: true },
  /** Where the previous object was preserved; null when there was none. */
  copy_key: { type: String, default: null },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
publishJournalSchema.index({ deployment_id: 1, key: 1 }, { unique: true });
publishJournalSchema.index({ created_at: 1 });

export type PublishJournal = InferSchemaType<typeof publishJournalSchema> & { _id: string };

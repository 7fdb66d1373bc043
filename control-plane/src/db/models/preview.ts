import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

export const PREVIEW_STATUSES = ['active', 'deleted'] as const;

/**
 * A branch preview of a project: the branch, the host label it is served at
 * (`{slug}--{label}.{SITES_DOMAIN}`, sites/preview-label.ts) and whether it is still served.
 * A branch keeps its label for good, even across deletion and re-creation, so a label once given
 * to one branch never points at another.
 */
export const previewSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  project_id: { type: String, required: true },
  branch: { type: String, required: true },
  label: { type: String, required: true },
  /** `deleted` once the branch was deleted: its files are removed and its host answers 404. */
  status: { type: String, enum: PREVIEW_STATUSES, default: 'active' },
  created_at: { type: Date, default: () => new Date() },
  deleted_at: { type: Date, default: null },
}, { versionKey: false });
previewSchema.index({ project_id: 1, branch: 1 }, { unique: true });
previewSchema.index({ project_id: 1, label: 1 }, { unique: true });

export type Preview = InferSchemaType<typeof previewSchema> & { _id: string };

import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

export const DEPLOYMENT_STATUSES = ['queued', 'building', 'deployed', 'failed'] as const;

/** One sync of a project's repository (spec 2.2). */
export const deploymentSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  project_id: { type: String, required: true },
  status: { type: String, enum: DEPLOYMENT_STATUSES, default: 'queued' },
  commit_sha: { type: String, default: null },
  started_at: { type: Date, default: () => new Date() },
  finished_at: { type: Date, default: null },
  pages_total: { type: Number, default: null },
  pages_success: { type: Number, default: null },
  pages_failed: { type: Number, default: null },
  error: { type: String, default: null },
}, { versionKey: false });
deploymentSchema.index({ project_id: 1, started_at: -1 });

export type Deployment = InferSchemaType<typeof deploymentSchema> & { _id: string };

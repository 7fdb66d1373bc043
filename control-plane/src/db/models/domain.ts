import { Schema, type InferSchemaType } from 'mongoose';

export const DOMAIN_STATUSES = ['pending', 'verified'] as const;

/**
 * A custom domain of a project. `_id` is the lower-cased hostname, so one hostname belongs to
 * at most one project on the whole platform. The site server answers for it only once
 * `status` is `verified` (sites/host-project.ts).
 */
export const domainSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  status: { type: String, enum: DOMAIN_STATUSES, default: 'pending' },
  /** Public: published in DNS or in the token file by the customer. */
  verification_token: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
  verified_at: { type: Date, default: null },
}, { versionKey: false });
domainSchema.index({ org_id: 1 });

export type Domain = InferSchemaType<typeof domainSchema> & { _id: string };

import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A user's seat in an organization's dashboard, with its role. The number of memberships is
 * what `max_dashboard_members` counts (entitlements/resolver.ts).
 */
export const membershipSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  user_id: { type: String, required: true, index: true },
  role: { type: String, enum: ROLES, required: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
membershipSchema.index({ org_id: 1, user_id: 1 }, { unique: true });

export type Membership = InferSchemaType<typeof membershipSchema> & { _id: string };

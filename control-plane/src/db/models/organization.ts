import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

export const PLAN_IDS = ['free', 'pro', 'team', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/**
 * An organization owns projects and API keys. `plan` is the plan in force; a downgrade is
 * recorded in `pending_plan` and takes effect at `pending_plan_at` (the end of the billing
 * period, quota rule 6); an upgrade applies at once (rule 5).
 */
export const organizationSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  /** Human handle used by the CLI, unique. */
  handle: { type: String, required: true, unique: true },
  name: { type: String, required: true },
  plan: { type: String, enum: PLAN_IDS, required: true, default: 'free' },
  pending_plan: { type: String, enum: [...PLAN_IDS, null], default: null },
  pending_plan_at: { type: Date, default: null },
  /**
   * A monthly agent credit cap agreed for this organization (an Enterprise contract, set by the
   * operator), replacing the plan's; null: the plan table's. A custom cap never has overage: past
   * it, calls are refused with 429 `quota_exceeded`.
   */
  agent_credits_cap: { type: Number, default: null },
  created_at: { type: Date, default: () => new Date() },
  /** Held while one project is being created (see entitlements/resolver.ts `withOrgLock`). */
  project_lock: { type: String, default: null },
  project_lock_until: { type: Date, default: null },
  /** Held while one dashboard seat is being taken: an invitation, an SSO or SCIM member (`withOrgLock`). */
  seat_lock: { type: String, default: null },
  seat_lock_until: { type: Date, default: null },
}, { versionKey: false });

export type Organization = InferSchemaType<typeof organizationSchema> & { _id: string };

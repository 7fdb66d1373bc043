import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';
import { builtInRoleOf, customRoleId, NAMED_ROLES, type RoleName } from '../../roles/roles.ts';

/** The role names a membership or invitation may hold besides `custom:<id>` (roles/roles.ts). */
export const ROLES = NAMED_ROLES;
export type Role = RoleName;

/** Whether `value` names a built-in role, an alias, or a custom role reference. */
export function isRoleName(value: unknown): value is RoleName {
  return typeof value === 'string' && (builtInRoleOf(value) !== undefined || customRoleId(value) !== undefined);
}

/**
 * A user's seat in an organization's dashboard, with its role. The number of memberships is
 * what `max_dashboard_members` counts (entitlements/resolver.ts). `active: false` (SCIM
 * deprovisioning) keeps the seat but signs the member out and refuses their sessions.
 */
export const membershipSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  user_id: { type: String, required: true, index: true },
  role: { type: String, required: true, validate: { validator: isRoleName, message: 'role must be a built-in role or custom:<id>' } },
  active: { type: Boolean, default: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
membershipSchema.index({ org_id: 1, user_id: 1 }, { unique: true });

export type Membership = InferSchemaType<typeof membershipSchema> & { _id: string };

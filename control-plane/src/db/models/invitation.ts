import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';
import { isRoleName } from './membership.ts';

/**
 * A pending invitation to an organization's dashboard. The link's token is stored only as its
 * SHA-256 (`token_hash`); a pending invitation holds a seat (`max_dashboard_members`) until it
 * is accepted, revoked or expires (a TTL index removes it).
 */
export const invitationSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true, index: true },
  email: { type: String, required: true },
  role: { type: String, required: true, validate: { validator: isRoleName, message: 'role must be a built-in role or custom:<id>' } },
  token_hash: { type: String, required: true, unique: true },
  invited_by: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
  expires_at: { type: Date, required: true },
}, { versionKey: false });
invitationSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type Invitation = InferSchemaType<typeof invitationSchema> & { _id: string };

import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A one-time link that lets the first person who opens it become an organization's owner
 * (printed by `npm start` for the `default` organization). `_id` is the SHA-256 of the token;
 * an organization has at most one live claim, replaced each time a new one is issued.
 */
export const ownerClaimSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true, unique: true },
  expires_at: { type: Date, required: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
ownerClaimSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type OwnerClaim = InferSchemaType<typeof ownerClaimSchema> & { _id: string };

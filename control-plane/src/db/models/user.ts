import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A person who signs in to the dashboard. Only a scrypt hash of the password is stored
 * (dashboard/passwords.ts); `password_hash: null` means the account cannot sign in yet (an
 * organization's owner before the first-start claim link is used).
 */
export const userSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  /** Lower-cased; one account per address across the platform. */
  email: { type: String, required: true, unique: true },
  name: { type: String, default: '' },
  password_hash: { type: String, default: null },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type User = InferSchemaType<typeof userSchema> & { _id: string };

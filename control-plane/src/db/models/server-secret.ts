import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A random secret the platform made for itself (e.g. the key that signs site-password cookies),
 * kept in the database so every control plane of one install shares it and a restart keeps it:
 * cookies signed before a restart stay valid.
 */
export const serverSecretSchema = new Schema({
  /** What the secret is for, e.g. `site-password-cookie`. */
  _id: { type: String, required: true },
  value: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type ServerSecret = InferSchemaType<typeof serverSecretSchema> & { _id: string };

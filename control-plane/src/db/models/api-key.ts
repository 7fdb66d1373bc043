import { Schema, type InferSchemaType } from 'mongoose';

/**
 * An API key. Only a SHA-256 hash of the secret is stored, so a dump of the database holds no
 * usable key. `scopes: null` means full access: such a key holds every scope, including scopes
 * introduced later.
 */
export const apiKeySchema = new Schema({
  /** The public `<id>` part of `svc_<id>_<secret>`. */
  _id: { type: String, required: true },
  org_id: { type: String, required: true, index: true },
  name: { type: String, default: '' },
  secret_hash: { type: String, required: true },
  scopes: { type: [String], default: null },
  expires_at: { type: Date, default: null },
  created_at: { type: Date, default: () => new Date() },
  /** When the key last authenticated a request (written at most once a minute per key). */
  last_used_at: { type: Date, default: null },
}, { versionKey: false });

export type ApiKey = InferSchemaType<typeof apiKeySchema> & { _id: string };

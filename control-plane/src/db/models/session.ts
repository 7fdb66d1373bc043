import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A signed-in dashboard session. `_id` is the SHA-256 of the cookie's token, so a dump of the
 * database holds no usable session. `expires_at` slides forward with use (never past
 * `max_expires_at`); a TTL index removes expired sessions.
 */
export const sessionSchema = new Schema({
  _id: { type: String, required: true },
  user_id: { type: String, required: true, index: true },
  org_id: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
  last_seen_at: { type: Date, required: true },
  expires_at: { type: Date, required: true },
  max_expires_at: { type: Date, required: true },
}, { versionKey: false });
sessionSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type Session = InferSchemaType<typeof sessionSchema> & { _id: string };

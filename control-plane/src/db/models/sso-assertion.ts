import { Schema, type InferSchemaType } from 'mongoose';

/**
 * The replay store: every SAML assertion accepted, by `<org id>:<assertion ID>`, kept until the
 * assertion could no longer be accepted anyway (its NotOnOrAfter, capped by the maximum age,
 * plus the allowed clock skew). Inserting an ID already present fails on `_id`, so the same
 * assertion posted twice, even at the same instant by two API processes, signs in once.
 */
export const ssoAssertionSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true },
  expires_at: { type: Date, required: true },
}, { versionKey: false });
ssoAssertionSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type SsoAssertion = InferSchemaType<typeof ssoAssertionSchema> & { _id: string };

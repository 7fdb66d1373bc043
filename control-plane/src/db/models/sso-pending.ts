import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A sign-in started at the identity provider and not yet come back, used once:
 *
 * - OIDC: `_id` is the SHA-256 of the `state` (which the browser also holds in a cookie), with
 *   the PKCE code verifier and the nonce;
 * - SAML: `_id` is `saml:<org id>:<AuthnRequest ID>`, the InResponseTo a response must carry.
 *
 * A TTL index removes them after `expires_at` (10 minutes).
 */
export const ssoPendingSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true },
  code_verifier: { type: String, default: null },
  nonce: { type: String, default: null },
  /** node-saml's value for a request id (its creation instant). */
  value: { type: String, default: null },
  /** Set when a SAML request id was answered (or refused): a second answer to it is a replay. */
  used_at: { type: Date, default: null },
  created_at: { type: Date, required: true },
  expires_at: { type: Date, required: true },
}, { versionKey: false });
ssoPendingSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type SsoPending = InferSchemaType<typeof ssoPendingSchema> & { _id: string };

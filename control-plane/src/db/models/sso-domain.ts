import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * An email domain an organization claims for single sign-on, proven with a DNS TXT record
 * (`_folio-challenge.<domain>` = `folio-verify=<token>`, as custom domains). Any number of
 * organizations may hold a pending claim; once verified, the domain belongs to that one
 * organization (a unique index on verified domains), and sign-in by SSO for an address on it
 * goes to that organization's connection.
 */
export const ssoDomainSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true, index: true },
  /** Lower-cased, e.g. `acme.com`. */
  domain: { type: String, required: true },
  status: { type: String, enum: ['pending', 'verified'], default: 'pending' },
  verification_token: { type: String, required: true },
  created_at: { type: Date, required: true },
  verified_at: { type: Date, default: null },
}, { versionKey: false });
ssoDomainSchema.index({ domain: 1 }, { unique: true, partialFilterExpression: { status: 'verified' }, name: 'one_verified_sso_domain' });
ssoDomainSchema.index({ domain: 1, org_id: 1 }, { unique: true, name: 'one_sso_claim_per_org_and_domain' });

export type SsoDomain = InferSchemaType<typeof ssoDomainSchema> & { _id: string };

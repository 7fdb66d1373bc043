import { Schema, type InferSchemaType } from 'mongoose';

/**
 * States of a custom domain's certificate. `pending`: none issued yet (an order is due);
 * `issued`: live; `renewing`: live, and a replacement is being ordered now; `failed`: the last
 * order failed (`last_error` says why in people's words, `next_attempt_at` when it is tried again);
 * a certificate issued before keeps being served until it expires.
 */
export const CERTIFICATE_STATUSES = ['pending', 'issued', 'renewing', 'failed'] as const;
export type CertificateStatus = typeof CERTIFICATE_STATUSES[number];

/**
 * The TLS certificate of one verified custom domain, obtained over ACME by the platform
 * (domains/certificate-scheduler.ts). Kept in the database so every replica of the site server
 * serves the same one and only one replica orders at a time (the lease). The private key is
 * sealed (secrets/secret-box.ts); the certificate chain is public. A certificate is served only
 * while the hostname is a verified domain of `project_id` (domains/certificate-contexts.ts).
 */
export const certificateSchema = new Schema({
  /** The hostname, lower-cased. */
  _id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  org_id: { type: String, required: true },
  status: { type: String, enum: CERTIFICATE_STATUSES, default: 'pending' },
  /** Leaf first, then the chain, PEM. */
  cert_pem: { type: String, default: null },
  key_sealed: { type: String, default: null },
  serial: { type: String, default: null },
  not_before: { type: Date, default: null },
  not_after: { type: Date, default: null },
  issued_at: { type: Date, default: null },
  /** Why the last order failed, in people's words; null after a success. */
  last_error: { type: String, default: null },
  failed_at: { type: Date, default: null },
  /** Failed orders in a row (the backoff grows with it). */
  attempts: { type: Number, default: 0 },
  /** When an order is due (pending or failed); null while issued (renewal is due from `not_after`). */
  next_attempt_at: { type: Date, default: null },
  /** The process ordering now, and until when its claim holds (a crashed one's lapses). */
  lease_owner: { type: String, default: null },
  lease_until: { type: Date, default: null },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
certificateSchema.index({ status: 1, next_attempt_at: 1 });
certificateSchema.index({ not_after: 1 });

export type Certificate = InferSchemaType<typeof certificateSchema> & { _id: string };

/**
 * The ACME account the platform orders with, one per directory URL (its `_id`). The account key
 * is sealed; `url` is the account's URL at the CA (its key id).
 */
export const acmeAccountSchema = new Schema({
  _id: { type: String, required: true },
  key_sealed: { type: String, required: true },
  url: { type: String, default: null },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type AcmeAccount = InferSchemaType<typeof acmeAccountSchema> & { _id: string };

/**
 * An HTTP-01 challenge being answered: the CA fetches
 * `http://<hostname>/.well-known/acme-challenge/<token>` from any replica, and gets the key
 * authorization. Removed once the order ends; a TTL index removes forgotten ones.
 */
export const acmeChallengeSchema = new Schema({
  /** The challenge token. */
  _id: { type: String, required: true },
  hostname: { type: String, required: true },
  key_authorization: { type: String, required: true },
  expires_at: { type: Date, required: true },
}, { versionKey: false });
acmeChallengeSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export type AcmeChallenge = InferSchemaType<typeof acmeChallengeSchema> & { _id: string };

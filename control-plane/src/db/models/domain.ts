import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType, type Model } from 'mongoose';

export const DOMAIN_STATUSES = ['pending', 'verified'] as const;

/** How long a claim stays pending: it lapses 7 days after it was added unless verified by then. */
export const PENDING_DOMAIN_TTL_MS = 7 * 24 * 3600_000;

/**
 * One project's claim on a custom domain (a lower-cased hostname). Any number of projects, of
 * any organizations, may hold a pending claim on the same hostname, each with its own token, so
 * a claim by someone who does not own the domain blocks nobody. The first to verify wins: one
 * verified claim per hostname (a unique index on the hostname of verified claims makes two
 * simultaneous verifications end with exactly one), and the other claims are removed then.
 * Pending claims lapse at `expires_at` (a TTL index removes them; queries also ignore them
 * from that instant). The site server answers only for verified claims (sites/host-project.ts).
 *
 * Claims stored before this model had the hostname as `_id` and no `hostname` field;
 * `migrateLegacyDomains` fills it in before the indexes are built.
 */
export const domainSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  hostname: { type: String, required: true },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  status: { type: String, enum: DOMAIN_STATUSES, default: 'pending' },
  /** Public: published in DNS or in the token file by the customer. */
  verification_token: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
  verified_at: { type: Date, default: null },
  /** When a pending claim lapses; null once verified (a TTL index never touches it then). */
  expires_at: { type: Date, default: null },
}, { versionKey: false });
domainSchema.index({ hostname: 1 }, { unique: true, partialFilterExpression: { status: 'verified' }, name: 'one_verified_claim_per_hostname' });
domainSchema.index({ hostname: 1, project_id: 1 }, { unique: true, name: 'one_claim_per_project_and_hostname' });
domainSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });
domainSchema.index({ org_id: 1 });

export type Domain = InferSchemaType<typeof domainSchema> & { _id: string };

/** The filter of claims that count at `now`: verified ones and pending ones not yet lapsed. */
export function liveDomainFilter(now: Date): Record<string, unknown> {
  return { $or: [{ status: 'verified' }, { status: 'pending', expires_at: { $gt: now } }] };
}

/** Gives claims stored with the hostname as `_id` their `hostname`, and pending ones a lapse date. */
export async function migrateLegacyDomains(model: Model<Domain>): Promise<number> {
  const legacy = await model.find({ hostname: { $exists: false } }).lean();
  for (const d of legacy) {
    const lapse = d.status === 'pending' ? new Date(new Date(d.created_at ?? Date.now()).getTime() + PENDING_DOMAIN_TTL_MS) : null;
    await model.updateOne({ _id: d._id }, { $set: { hostname: d._id, expires_at: lapse } }, { strict: false });
  }
  return legacy.length;
}

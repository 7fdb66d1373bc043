/**
 * The one-time owner link: the first start creates the `default` organization with no owner
 * and no password; `npm start` prints `{dashboard}/claim#token=…` while the organization has no
 * owner (a fresh link at each start, replacing the previous one). Whoever opens it sets the
 * owner's email and password and is signed in; the link then stops working.
 */
import type { Models } from '../db/models/index.ts';
import { dashboardOrigin, type Env } from '../env.ts';
import { newToken, tokenHash } from './tokens.ts';

/** How long a printed claim link stays valid. */
export const CLAIM_TTL_MS = 7 * 24 * 3_600_000;

/** True when the organization already has an owner. */
export async function hasOwner(m: Models, orgId: string): Promise<boolean> {
  return (await m.Membership.countDocuments({ org_id: orgId, role: 'owner' })) > 0;
}

/** Issues a claim for `orgId` (replacing any earlier one) and returns its link. */
export async function issueOwnerClaim(m: Models, env: Env, orgId: string, now: Date): Promise<string> {
  const token = newToken();
  await m.OwnerClaim.deleteMany({ org_id: orgId });
  await m.OwnerClaim.create({ _id: tokenHash(token), org_id: orgId, expires_at: new Date(now.getTime() + CLAIM_TTL_MS), created_at: now });
  return `${dashboardOrigin(env)}/claim#token=${token}`;
}

/** Uses up a claim token: the organization it was for, or undefined (unknown, used or expired). */
export async function consumeOwnerClaim(m: Models, token: string, now: Date): Promise<string | undefined> {
  const claim = await m.OwnerClaim.findOneAndDelete({ _id: tokenHash(token) }).lean();
  if (!claim || claim.expires_at.getTime() <= now.getTime()) return undefined;
  return claim.org_id;
}

/**
 * "Require SSO": an organization on a plan with `single_sign_on` can refuse password sign-in to
 * its members whose email is on one of its verified domains. Owners keep a break-glass password
 * path (an IdP outage must not lock the organization out), recorded in the audit log as
 * `session.break_glass`. When the plan no longer includes SSO, passwords work again.
 */
import type { Models } from '../db/models/index.ts';
import type { Role } from '../db/models/membership.ts';
import type { PlanId } from '../db/models/organization.ts';
import { AppError } from '../errors.ts';
import { BOOLEAN_FEATURES, planIncludes } from '../entitlements/plans.ts';

/** The domain part of an email, lower-cased. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** 403 for a password sign-in the organization's "Require SSO" refuses. */
export const ssoRequired = (domain: string) =>
  new AppError(403, 'sso_required', `Your organization requires single sign-on for ${domain} addresses; use "Continue with SSO"`);

/**
 * The organization whose "Require SSO" covers this user's password sign-in, with the user's
 * role there; undefined when none does.
 */
export async function ssoPolicyFor(m: Models, userId: string, email: string): Promise<{ orgId: string; role: Role; domain: string } | undefined> {
  const domain = emailDomain(email);
  const claim = await m.SsoDomain.findOne({ domain, status: 'verified' }).lean();
  if (!claim) return undefined;
  const [conn, org, membership] = await Promise.all([
    m.SsoConnection.findOne({ org_id: claim.org_id }).lean(),
    m.Organization.findById(claim.org_id).lean(),
    m.Membership.findOne({ org_id: claim.org_id, user_id: userId }).lean(),
  ]);
  if (!conn?.require_sso || !org || !membership || !planIncludes(org.plan as PlanId, BOOLEAN_FEATURES.single_sign_on)) return undefined;
  return { orgId: claim.org_id, role: membership.role as Role, domain };
}

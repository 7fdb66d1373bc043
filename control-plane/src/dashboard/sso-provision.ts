/**
 * The end of every SSO sign-in, whatever the protocol: the asserted email must be on one of the
 * organization's verified domains (an IdP speaks only for its own organization's addresses),
 * the organization must still be on a plan with `single_sign_on`, and the person gets a seat
 * just in time if they have none: a pending invitation's (its role, no new seat), else a new
 * one with the connection's default role within `max_dashboard_members` (402
 * `plan_limit_reached` past it, as invitations). The session is made by `signIn` (auth-routes):
 * a new token, the request's old session ended.
 */
import type Koa from 'koa';
import { recordAudit } from '../audit/record.ts';
import type { Role } from '../db/models/membership.ts';
import type { SsoProtocol } from '../db/models/sso-connection.ts';
import { checkLifetimeCap, requireFeature, withOrgLock } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { emailDomain } from '../sso/require-sso.ts';
import { SsoFailure } from '../sso/sso-error.ts';
import { signIn } from './auth-routes.ts';
import { requestIp } from './session-auth.ts';

/** Where audit entries go for attempts no organization can be named for (an unknown domain). */
export const UNATTRIBUTED_ORG = 'platform';

async function planAllowsSso(deps: Deps, orgId: string): Promise<void> {
  try {
    await requireFeature(deps.m, orgId, 'single_sign_on', deps.now(), deps.env.UPGRADE_URL);
  } catch (err) {
    if (err instanceof AppError && err.code === 'plan_required') throw new SsoFailure('plan_required', err.message);
    throw err;
  }
}

/** Finds or makes the seat of `userId`; answers its role and whether it was made now. */
async function seatFor(deps: Deps, orgId: string, userId: string, email: string, defaultRole: Role): Promise<{ role: Role; provisioned: boolean }> {
  const existing = await deps.m.Membership.findOne({ org_id: orgId, user_id: userId }).lean();
  if (existing) {
    // Deactivated (SCIM): the IdP said this person is gone; no session until reactivated there.
    if ((existing as { active?: boolean }).active === false) throw new SsoFailure('sso_member_deactivated', `${email} is deactivated in this organization`);
    return { role: existing.role as Role, provisioned: false };
  }
  const invitation = await deps.m.Invitation.findOneAndDelete({ org_id: orgId, email, expires_at: { $gt: deps.now() } }).lean();
  const role = (invitation?.role ?? defaultRole) as Role;
  // An invitation held its seat; anyone else takes one under the seat lock, checked against the cap.
  if (invitation) await deps.m.Membership.create({ org_id: orgId, user_id: userId, role, created_at: deps.now() });
  else {
    await withOrgLock(deps.m, orgId, 'seat', async () => {
      try {
        await checkLifetimeCap(deps.m, orgId, 'max_dashboard_members', deps.now(), deps.env.UPGRADE_URL);
      } catch (err) {
        if (err instanceof AppError && err.code === 'plan_limit_reached') throw new SsoFailure('plan_limit_reached', err.message);
        throw err;
      }
      await deps.m.Membership.create({ org_id: orgId, user_id: userId, role, created_at: deps.now() });
    });
  }
  return { role, provisioned: true };
}

/** Signs `email` in to `orgId` after its IdP vouched for it; throws {@link SsoFailure}. */
export async function completeSsoSignIn(ctx: Koa.Context, deps: Deps, orgId: string, email: string, protocol: SsoProtocol, details: Record<string, unknown> = {}): Promise<void> {
  await planAllowsSso(deps, orgId);
  const conn = await deps.m.SsoConnection.findOne({ org_id: orgId }).lean();
  if (!conn || conn.protocol !== protocol) throw new SsoFailure('sso_not_configured', `No ${protocol} connection`);
  const domain = emailDomain(email);
  if (!await deps.m.SsoDomain.exists({ org_id: orgId, domain, status: 'verified' })) {
    throw new SsoFailure('sso_email_not_allowed', `${email}: ${domain} is not a verified domain of the organization`);
  }
  let user = await deps.m.User.findOne({ email }).lean();
  if (!user) {
    try {
      user = (await deps.m.User.create({ email, name: '', password_hash: null, created_at: deps.now() })).toObject();
    } catch (err: any) {
      // Two first sign-ins at once: the other one made the account.
      if (err?.code !== 11000) throw err;
      user = await deps.m.User.findOne({ email }).lean();
      if (!user) throw err;
    }
  }
  const { role, provisioned } = await seatFor(deps, orgId, user._id, email, conn.default_role as Role);
  await signIn(ctx, deps, user._id, orgId, role);
  const ip = requestIp(ctx, deps.env);
  const target = { type: 'user', id: user._id, name: email };
  if (provisioned) await recordAudit(deps, { orgId, actorUserId: user._id, action: 'sso.member_provisioned', target, details: { role, protocol }, ip });
  await recordAudit(deps, { orgId, actorUserId: user._id, action: 'sso.signed_in', target, details: { protocol, ...details }, ip });
}

/** Records a refused SSO sign-in in the organization's audit log (or the unattributed one). */
export async function recordSsoFailure(ctx: Koa.Context, deps: Deps, failure: SsoFailure, protocol: SsoProtocol | null, email?: string): Promise<void> {
  await recordAudit(deps, {
    orgId: failure.orgId ?? UNATTRIBUTED_ORG, actorUserId: null, actorLabel: 'sso',
    action: 'sso.sign_in_failed', target: { type: 'sso_connection', id: failure.orgId ?? null, name: email ?? null },
    details: { code: failure.code, protocol, detail: failure.detail }, ip: requestIp(ctx, deps.env),
  });
}

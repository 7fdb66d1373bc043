/**
 * Sign-in, sign-out, the first-start owner claim and the session itself. Sign-in and the claim
 * always start a new session with a new token (a token planted before sign-in is worthless) and
 * end the one the request's cookie carried. Sign-in is the only place a user's password is
 * checked, and it is checked only through the sign-in limits (sign-in-limits.ts).
 */
import type Koa from 'koa';
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import type { Role } from '../db/models/membership.ts';
import { AppError, unauthorized } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { consumeOwnerClaim } from './owner-claim.ts';
import { hashPassword } from './passwords.ts';
import { emailSchema, nameSchema, noContent, passwordSchema, sessionResponse } from './schemas.ts';
import { clearSessionCookie, currentSession, readSessionToken, requestIp, setSessionCookie } from './session-auth.ts';
import { recordAudit } from '../audit/record.ts';
import { resolveActor } from '../roles/resolve.ts';
import { createSession, csrfTokenFor, deleteSession, deleteUserSessions, type DashboardSession } from './session-store.ts';
import { SignInLimits, type SignInLimitOptions } from './sign-in-limits.ts';
import { tokenHash } from './tokens.ts';
import { ssoPolicyFor, ssoRequired } from '../sso/require-sso.ts';

/** The `GET /session` body of a session. */
export async function sessionBody(m: Models, s: { userId: string; orgId: string; role: Role; csrfToken: string }): Promise<z.infer<typeof sessionResponse>> {
  const [user, org, actor] = await Promise.all([m.User.findById(s.userId).lean(), m.Organization.findById(s.orgId).lean(), resolveActor(m, s.orgId, s.userId, s.role)]);
  if (!user || !org) throw unauthorized('Not signed in; sign in to the dashboard first');
  return {
    user: { id: user._id, email: user.email, name: user.name ?? '' },
    organization: { id: org._id, name: org.name, handle: org.handle, plan: org.plan },
    role: s.role, permissions: actor.permissions, csrf_token: s.csrfToken,
  };
}

/**
 * Starts a session for `userId` in `orgId` and answers with it: drops the session the request
 * came with, mints a new token, sets the cookie.
 */
export async function signIn(ctx: Koa.Context, deps: Deps, userId: string, orgId: string, role: Role) {
  const previous = readSessionToken(ctx);
  if (previous) await deleteSession(deps.m, tokenHash(previous));
  const { token } = await createSession(deps.m, deps.env, userId, orgId, deps.now());
  setSessionCookie(ctx, deps.env, token);
  return sessionBody(deps.m, { userId, orgId, role, csrfToken: csrfTokenFor(token) });
}

/** 409 when the address already has an account. */
export async function assertEmailFree(m: Models, email: string): Promise<void> {
  if (await m.User.exists({ email })) throw new AppError(409, 'email_taken', `email: "${email}" already has an account; sign in with it instead`);
}

const invalidToken = () => new AppError(400, 'invalid_token', 'This link is unknown, already used or expired; ask for a new one');

export function registerAuthRoutes(router: DashboardRouter, deps: Deps, limitOptions?: Partial<SignInLimitOptions>): void {
  const limits = new SignInLimits(deps.m, limitOptions);

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/sign-in', operationId: 'dashboardSignIn', summary: 'Sign in with email and password', auth: 'public',
    description: `Sets the \`folio_session\` cookie. Each attempt takes a slot before the password is checked: ${limits.opts.perEmail} per email `
      + `and ${limits.opts.perIp} per address (a success gives its slots back) within ${limits.opts.windowMs / 60_000} minutes; past either, `
      + '429 `rate_limited` with Retry-After, whatever the password. When the organization owning the email\'s domain requires SSO, a correct password '
      + 'of a member other than an owner is 403 `sso_required`; an owner\'s is accepted and recorded as `session.break_glass`.',
    body: z.strictObject({ email: emailSchema, password: z.string().min(1, 'Required').max(200, 'must be at most 200 characters') }),
    responses: { 200: { description: 'Signed in', schema: sessionResponse } },
    async handler({ ctx, body, deps }) {
      const ip = requestIp(ctx, deps.env);
      const user = await deps.m.User.findOne({ email: body.email }).lean();
      const ok = await limits.checkPassword({ email: body.email, ip, now: deps.now(), password: body.password, storedHash: user?.password_hash });
      // The oldest seat is the one a sign-in opens; an account without one cannot sign in.
      // A seat suspended through SCIM opens nothing: its session would be refused at the next request.
      const membership = ok && user ? await deps.m.Membership.findOne({ user_id: user._id, active: { $ne: false } }).sort({ created_at: 1 }).lean() : null;
      if (!user || !membership) throw new AppError(401, 'invalid_credentials', 'Email or password is incorrect');
      // Checked after the password, so the answer tells nothing to someone without it.
      const sso = await ssoPolicyFor(deps.m, user._id, user.email);
      if (sso && sso.role !== 'owner') throw ssoRequired(sso.domain);
      const session = await signIn(ctx, deps, user._id, membership.org_id, membership.role as Role);
      if (sso) await recordAudit(deps, { orgId: sso.orgId, actorUserId: user._id, action: 'session.break_glass', target: { type: 'user', id: user._id, name: user.email }, details: { reason: 'owner password sign-in while SSO is required' }, ip });
      await recordAudit(deps, { orgId: membership.org_id, actorUserId: user._id, action: 'session.signed_in', target: { type: 'user', id: user._id, name: user.email }, ip });
      return { body: session };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/claim', operationId: 'dashboardClaimOwner', summary: 'Use the one-time owner link printed by `npm start`', auth: 'public',
    description: 'Sets the owner\'s email, name and password and signs in. The token works once; 400 `invalid_token` afterwards.',
    body: z.strictObject({ token: z.string().min(1, 'Required').max(200, 'must be at most 200 characters'), email: emailSchema, name: nameSchema.optional(), password: passwordSchema }),
    responses: { 200: { description: 'Signed in as the owner', schema: sessionResponse } },
    async handler({ ctx, body, deps }) {
      const claim = await deps.m.OwnerClaim.findById(tokenHash(body.token)).lean();
      if (!claim || claim.expires_at.getTime() <= deps.now().getTime()) throw invalidToken();
      await assertEmailFree(deps.m, body.email);
      const orgId = await consumeOwnerClaim(deps.m, body.token, deps.now());
      if (!orgId) throw invalidToken();
      const user = await deps.m.User.create({ email: body.email, name: body.name ?? '', password_hash: await hashPassword(body.password), created_at: deps.now() });
      await deps.m.Membership.create({ org_id: orgId, user_id: user._id, role: 'owner', created_at: deps.now() });
      return { body: await signIn(ctx, deps, user._id, orgId, 'owner') };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/session', operationId: 'dashboardGetSession', permission: 'signed_in', summary: 'The signed-in user, organization, role and CSRF token',
    responses: { 200: { description: 'The session', schema: sessionResponse } },
    async handler({ session, deps }) {
      return { body: await sessionBody(deps.m, session) };
    },
  }));

  // The app asks this on every load: signed out is an ordinary answer here, not a 401, so a
  // signed-out visit logs no failed request in the browser. `GET /session` keeps its 401.
  router.add(defineDashboardRoute({
    method: 'get', path: '/session/probe', operationId: 'dashboardProbeSession', auth: 'public',
    summary: 'Whether this browser is signed in, and the session if it is',
    description: 'Always 200: `{ signed_in: false }` without a valid session cookie, else `{ signed_in: true, session }` with the body of `GET /session`.',
    responses: { 200: { description: 'Signed-in state', schema: z.union([
      z.object({ signed_in: z.literal(false) }),
      z.object({ signed_in: z.literal(true), session: sessionResponse }),
    ]) } },
    async handler({ ctx, deps }) {
      const session = await currentSession(ctx, deps);
      return { body: session ? { signed_in: true as const, session: await sessionBody(deps.m, session) } : { signed_in: false as const } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/sign-out', operationId: 'dashboardSignOut', permission: 'signed_in', summary: 'End this session',
    responses: noContent,
    async handler({ ctx, session, deps }) {
      await deleteSession(deps.m, (session as DashboardSession).sessionId);
      clearSessionCookie(ctx, deps.env);
      return { status: 204 };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/sign-out-everywhere', operationId: 'dashboardSignOutEverywhere', permission: 'signed_in', summary: 'End every session of this user, on every device',
    responses: noContent,
    async handler({ ctx, session, deps }) {
      await deleteUserSessions(deps.m, session.userId);
      clearSessionCookie(ctx, deps.env);
      return { status: 204 };
    },
  }));
}

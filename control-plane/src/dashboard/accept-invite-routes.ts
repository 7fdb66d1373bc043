/**
 * Following an invitation link (`{dashboard}/accept-invite#token=…`).
 *
 * - For an address with no account, the link creates it: `POST /auth/accept-invite
 *   { token, name, password }` sets the password and signs in to the organization.
 * - For an address that already has an account, the link never takes or checks a password
 *   (that would let whoever holds a link, the inviting organization included, guess the
 *   account's password outside the sign-in limits). The person signs in as usual, then accepts
 *   with `{ token }` while signed in as that same account, with the session's X-CSRF-Token;
 *   without such a session: 409 `sign_in_required`; signed in as someone else: 403 `wrong_account`.
 *
 * Either way the answer is a new session in the invited organization (the request's own session
 * ends), and the link works once. `POST /auth/invitation { token }` tells the page which of the
 * two it is; the token travels in bodies only, never in a URL the server logs.
 */
import { z } from 'zod';
import type { Invitation } from '../db/models/invitation.ts';
import type { Role } from '../db/models/membership.ts';
import { AppError, invalid } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { assertEmailFree, signIn } from './auth-routes.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { hashPassword } from './passwords.ts';
import { emailSchema, nameSchema, passwordSchema, roleSchema, sessionResponse } from './schemas.ts';
import { assertCsrfToken, currentSession } from './session-auth.ts';
import { tokenHash } from './tokens.ts';

const tokenSchema = z.string().min(1, 'Required').max(200, 'must be at most 200 characters');

const invalidToken = () => new AppError(400, 'invalid_token', 'This link is unknown, already used or expired; ask for a new one');

/** 409 for a link to an existing account followed without a session. */
export const signInRequired = () => new AppError(409, 'sign_in_required', 'An account exists for this email; sign in, then open the invitation link again');

/** 403 for a link to an existing account followed while signed in as another one. */
export const wrongAccount = () => new AppError(403, 'wrong_account', 'This invitation is for another account than the one signed in; sign out, sign in as the invited address, then open the invitation link again');

/** The pending invitation of a link token, or 400 `invalid_token`. */
async function pendingInvitation(deps: Deps, token: string): Promise<Invitation> {
  const inv = await deps.m.Invitation.findOne({ token_hash: tokenHash(token) }).lean();
  if (!inv || inv.expires_at.getTime() <= deps.now().getTime()) throw invalidToken();
  return inv;
}

/** Uses the invitation up (whoever deletes it first joins) and adds the membership; answers the role. */
async function join(deps: Deps, inv: Invitation, userId: string): Promise<Role> {
  // Someone already in the organization keeps the role they have.
  const existing = await deps.m.Membership.findOne({ org_id: inv.org_id, user_id: userId }).lean();
  const role = (existing?.role ?? inv.role) as Role;
  if (!existing) await deps.m.Membership.create({ org_id: inv.org_id, user_id: userId, role, created_at: deps.now() });
  return role;
}

async function useUp(deps: Deps, inv: Invitation): Promise<void> {
  if (!(await deps.m.Invitation.deleteOne({ _id: inv._id })).deletedCount) throw invalidToken();
}

const invitationView = z.object({
  email: z.string().describe('The invited address: the account that joins'),
  role: roleSchema,
  organization: z.object({ name: z.string() }),
  account_exists: z.boolean().describe('True: sign in as this address, then accept with the token alone; false: accept with a name and a new password'),
  expires_at: z.string(),
}).meta({ id: 'DashboardInvitationLink' });

export function registerAcceptInviteRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/invitation', operationId: 'dashboardReadInvitation', summary: 'What an invitation link is for, before accepting it', auth: 'public',
    description: 'A POST so the token stays out of URLs. An unknown, used, revoked or expired link: 400 `invalid_token`.',
    body: z.strictObject({ token: tokenSchema }),
    responses: { 200: { description: 'The invitation', schema: invitationView } },
    async handler({ body, deps }) {
      const inv = await pendingInvitation(deps, body.token);
      const [org, user] = await Promise.all([deps.m.Organization.findById(inv.org_id).lean(), deps.m.User.exists({ email: inv.email })]);
      if (!org) throw invalidToken();
      return { body: { email: inv.email, role: inv.role as Role, organization: { name: org.name }, account_exists: Boolean(user), expires_at: inv.expires_at.toISOString() } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/accept-invite', operationId: 'dashboardAcceptInvitation', summary: 'Join an organization from an invitation link', auth: 'public',
    description: 'A new address: `{ token, name, password }` creates the account. An address with an account: `{ token }` only, signed in as that account '
      + '(cookie and X-CSRF-Token); no password is taken. Without that session: 409 `sign_in_required`; signed in as another account: 403 `wrong_account`. '
      + 'Answers a new session in the invited organization. An unknown, used, revoked or expired link: 400 `invalid_token`.',
    body: z.strictObject({ token: tokenSchema, name: nameSchema.optional(), email: emailSchema.optional(), password: passwordSchema.optional() }),
    responses: { 200: { description: 'Signed in to the invited organization', schema: sessionResponse }, 403: { description: 'wrong_account' }, 409: { description: 'sign_in_required' } },
    async handler({ ctx, body, deps }) {
      const inv = await pendingInvitation(deps, body.token);
      if (body.email !== undefined && body.email !== inv.email) throw invalid('email', `must be the invited address ${inv.email}`);
      const user = await deps.m.User.findOne({ email: inv.email }).lean();
      if (user) {
        const session = await currentSession(ctx, deps);
        if (!session) throw signInRequired();
        assertCsrfToken(ctx, session);
        if (session.userId !== user._id) throw wrongAccount();
        if (body.password !== undefined) throw invalid('password', 'Unexpected for an existing account; accept while signed in, without a password');
        await useUp(deps, inv);
        return { body: await signIn(ctx, deps, user._id, inv.org_id, await join(deps, inv, user._id)) };
      }
      if (body.name === undefined) throw invalid('name', 'Required for a new account');
      if (body.password === undefined) throw invalid('password', 'Required for a new account');
      await useUp(deps, inv);
      await assertEmailFree(deps.m, inv.email);
      const created = await deps.m.User.create({ email: inv.email, name: body.name, password_hash: await hashPassword(body.password), created_at: deps.now() });
      return { body: await signIn(ctx, deps, created._id, inv.org_id, await join(deps, inv, created._id)) };
    },
  }));
}

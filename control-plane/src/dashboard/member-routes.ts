/**
 * Members, invitations and roles. What each role may do:
 *
 * | | owner | admin | member |
 * |---|---|---|---|
 * | read projects, deployments, domains, analytics, plan, members; redeploy | yes | yes | yes |
 * | API keys; create, edit, rename, delete projects; custom domains | yes | yes | no |
 * | invite (admins invite members and admins; owners any role); revoke invitations | yes | yes | no |
 * | change roles | yes | no | no |
 * | remove members | anyone | members only | only themselves |
 *
 * An organization always keeps one owner: the last owner can be neither demoted nor removed
 * (409 `last_owner`). Invitations are links shown to the inviter (no email is sent); each
 * pending one holds a seat of `max_dashboard_members` (402 `plan_limit_reached` past it).
 * Following a link is in accept-invite-routes.ts.
 */
import { z } from 'zod';
import type { Role } from '../db/models/membership.ts';
import { checkLifetimeCap } from '../entitlements/resolver.ts';
import { dashboardOrigin } from '../env.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { emailSchema, noContent, roleSchema } from './schemas.ts';
import { deleteUserSessions } from './session-store.ts';
import { newToken, tokenHash } from './tokens.ts';

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

const memberSchema = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role: roleSchema, joined_at: z.string() }).meta({ id: 'DashboardMember' });
const invitationSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema, created_at: z.string(), expires_at: z.string() }).meta({ id: 'DashboardInvitation' });
const userParams = z.object({ userId: z.string() });

const lastOwner = () => new AppError(409, 'last_owner', 'An organization needs an owner; make another member owner first');

async function onlyOwner(deps: Deps, orgId: string, userId: string): Promise<boolean> {
  const owners = await deps.m.Membership.find({ org_id: orgId, role: 'owner' }, { user_id: 1 }).lean();
  return owners.length === 1 && owners[0].user_id === userId;
}

export function registerMemberRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/members', operationId: 'dashboardListMembers', summary: 'The organization\'s members, oldest first',
    responses: { 200: { description: 'Members', schema: z.object({ data: z.array(memberSchema) }) } },
    async handler({ session, deps }) {
      const rows = await deps.m.Membership.find({ org_id: session.orgId }).sort({ created_at: 1, _id: 1 }).lean();
      const users = new Map((await deps.m.User.find({ _id: { $in: rows.map((r) => r.user_id) } }).lean()).map((u) => [u._id, u]));
      return { body: { data: rows.map((r) => ({ user_id: r.user_id, email: users.get(r.user_id)?.email ?? '', name: users.get(r.user_id)?.name ?? '', role: r.role as Role, joined_at: r.created_at.toISOString() })) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/invitations', operationId: 'dashboardInvite', summary: 'Invite someone by link', roles: ['owner', 'admin'],
    description: 'Answers the link to hand over (shown once; no email is sent). Inviting the same address again replaces its earlier link. '
      + 'Past `max_dashboard_members` (members plus pending invitations): 402 `plan_limit_reached` with `upgrade_url`.',
    body: z.strictObject({ email: emailSchema, role: roleSchema }),
    responses: { 201: { description: 'The invitation and its link', schema: invitationSchema.extend({ invite_url: z.string() }) }, 402: { description: 'plan_limit_reached' }, 409: { description: 'already_member' } },
    async handler({ ctx, body, session, deps }) {
      if (session.role === 'admin' && body.role === 'owner') throw new AppError(403, 'forbidden_role', 'Only an owner can invite an owner');
      const user = await deps.m.User.findOne({ email: body.email }).lean();
      if (user && await deps.m.Membership.exists({ org_id: session.orgId, user_id: user._id })) {
        throw new AppError(409, 'already_member', `email: ${body.email} is already a member`);
      }
      await deps.m.Invitation.deleteMany({ org_id: session.orgId, email: body.email });
      await checkLifetimeCap(deps.m, session.orgId, 'max_dashboard_members', deps.now(), deps.env.UPGRADE_URL);
      const token = newToken();
      const now = deps.now();
      const inv = await deps.m.Invitation.create({
        org_id: session.orgId, email: body.email, role: body.role, token_hash: tokenHash(token), invited_by: session.userId,
        created_at: now, expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      await auditAction(ctx, deps, session, 'member.invited', { type: 'invitation', id: inv._id, name: body.email }, { role: body.role });
      return {
        status: 201,
        body: { id: inv._id, email: inv.email, role: inv.role as Role, created_at: now.toISOString(), expires_at: inv.expires_at.toISOString(), invite_url: `${dashboardOrigin(deps.env)}/accept-invite#token=${token}` },
      };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/invitations', operationId: 'dashboardListInvitations', summary: 'Pending invitations (their links are not shown again)', roles: ['owner', 'admin'],
    responses: { 200: { description: 'Invitations', schema: z.object({ data: z.array(invitationSchema) }) } },
    async handler({ session, deps }) {
      const rows = await deps.m.Invitation.find({ org_id: session.orgId, expires_at: { $gt: deps.now() } }).sort({ created_at: 1, _id: 1 }).lean();
      return { body: { data: rows.map((i) => ({ id: i._id, email: i.email, role: i.role as Role, created_at: i.created_at.toISOString(), expires_at: i.expires_at.toISOString() })) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/invitations/:id', operationId: 'dashboardRevokeInvitation', summary: 'Revoke an invitation; its link stops working', roles: ['owner', 'admin'],
    params: z.object({ id: z.string() }), responses: noContent,
    async handler({ params, session, deps }) {
      const { deletedCount } = await deps.m.Invitation.deleteOne({ _id: params.id, org_id: session.orgId });
      if (!deletedCount) throw notFound('invitation');
      return { status: 204 };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/members/:userId', operationId: 'dashboardChangeRole', summary: 'Change a member\'s role', roles: ['owner'],
    params: userParams, body: z.strictObject({ role: roleSchema }),
    responses: { 200: { description: 'The member', schema: memberSchema }, 409: { description: 'last_owner' } },
    async handler({ params, body, session, deps }) {
      const membership = await deps.m.Membership.findOne({ org_id: session.orgId, user_id: params.userId }).lean();
      if (!membership) throw notFound('member');
      if (membership.role === 'owner' && body.role !== 'owner' && await onlyOwner(deps, session.orgId, params.userId)) throw lastOwner();
      await deps.m.Membership.updateOne({ _id: membership._id }, { $set: { role: body.role } });
      const user = await deps.m.User.findById(params.userId).lean();
      return { body: { user_id: params.userId, email: user?.email ?? '', name: user?.name ?? '', role: body.role, joined_at: membership.created_at.toISOString() } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/members/:userId', operationId: 'dashboardRemoveMember', summary: 'Remove a member (or leave); their sessions in this organization end',
    params: userParams, responses: { ...noContent, 409: { description: 'last_owner' } },
    async handler({ params, session, deps }) {
      const membership = await deps.m.Membership.findOne({ org_id: session.orgId, user_id: params.userId }).lean();
      if (!membership) throw notFound('member');
      const self = params.userId === session.userId;
      const allowed = self || session.role === 'owner' || (session.role === 'admin' && membership.role === 'member');
      if (!allowed) throw new AppError(403, 'forbidden_role', session.role === 'admin' ? 'Admins can remove members only' : 'Members can remove only themselves');
      if (membership.role === 'owner' && await onlyOwner(deps, session.orgId, params.userId)) throw lastOwner();
      await deps.m.Membership.deleteOne({ _id: membership._id });
      await deleteUserSessions(deps.m, params.userId, session.orgId);
      return { status: 204 };
    },
  }));
}

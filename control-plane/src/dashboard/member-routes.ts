/**
 * Members, invitations and roles. Who may do what is the permission list of roles/roles.ts:
 *
 * - `members.read` (every built-in role): list members.
 * - `members.invite` (owner, admin): invite with a role whose permissions are all the
 *   inviter's own (only owners invite owners), list and revoke invitations, and remove members
 *   whose role grants strictly less than the remover's.
 * - `members.manage` (owner): change roles and remove anyone; a non-owner holding it (a custom
 *   role) still cannot touch owners, give a role beyond their own permissions, or act on a
 *   member whose role grants something they lack.
 * - Anyone may leave (remove themselves).
 *
 * An organization always keeps one owner: the last owner can be neither demoted nor removed
 * (409 `last_owner`). Custom roles are assigned only while the plan has `custom_roles`
 * (402 `plan_required`). Invitations are links shown to the inviter (no email is sent); each
 * pending one holds a seat of `max_dashboard_members` (402 `plan_limit_reached` past it).
 * Following a link is in accept-invite-routes.ts.
 */
import { z } from 'zod';
import type { Role } from '../db/models/membership.ts';
import { accessModels } from '../db/models/access-models.ts';
import { checkLifetimeCap, withOrgLock } from '../entitlements/resolver.ts';
import { assertCanGrant, groupRolesByUser } from '../roles/grant.ts';
import { rolePermissions } from '../roles/resolve.ts';
import { can, withinPermissions } from '../roles/roles.ts';
import { dashboardOrigin } from '../env.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { emailSchema, noContent, roleSchema } from './schemas.ts';
import { deleteUserSessions, type DashboardSession } from './session-store.ts';
import { newToken, tokenHash } from './tokens.ts';

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

const memberSchema = z.object({
  user_id: z.string(), email: z.string(), name: z.string(), role: roleSchema, joined_at: z.string(),
  active: z.boolean().describe('false: suspended by the identity provider (SCIM); cannot sign in'),
  group_roles: z.array(roleSchema).describe('Roles the member holds through SCIM groups, on top of `role`'),
}).meta({ id: 'DashboardMember' });
const invitationSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema, created_at: z.string(), expires_at: z.string() }).meta({ id: 'DashboardInvitation' });
const userParams = z.object({ userId: z.string() });

const lastOwner = () => new AppError(409, 'last_owner', 'An organization needs an owner; make another member owner first');

async function onlyOwner(deps: Deps, orgId: string, userId: string): Promise<boolean> {
  const owners = await deps.m.Membership.find({ org_id: orgId, role: 'owner' }, { user_id: 1 }).lean();
  return owners.length === 1 && owners[0].user_id === userId;
}

/** 403 unless a non-owner actor holds every permission of the member's current role (no acting on someone above). */
async function assertWithinActor(deps: Deps, session: DashboardSession, targetRole: string): Promise<void> {
  if (session.role === 'owner') return;
  const target = (await rolePermissions(deps.m, session.orgId, targetRole)).permissions;
  const beyond = target.filter((p) => !session.permissions.includes(p));
  if (beyond.length) throw new AppError(403, 'forbidden_role', `This member's role grants ${beyond.join(', ')}, which you do not hold`);
}

/** 403 unless the session may remove a member holding `targetRole` (see the module comment). */
async function assertCanRemove(deps: Deps, session: DashboardSession, targetRole: string): Promise<void> {
  if (session.role === 'owner') return;
  if (targetRole === 'owner') throw new AppError(403, 'forbidden_role', session.role === 'admin' ? 'Admins can remove members only' : 'Only an owner can remove an owner');
  if (can(session, 'members.manage')) return assertWithinActor(deps, session, targetRole);
  if (!can(session, 'members.invite')) throw new AppError(403, 'forbidden_role', 'Members can remove only themselves');
  const target = (await rolePermissions(deps.m, session.orgId, targetRole)).permissions;
  // Strictly less: an admin removes editors and viewers, not other admins.
  if (!withinPermissions(target, session.permissions) || target.length >= session.permissions.length) {
    throw new AppError(403, 'forbidden_role', session.role === 'admin' ? 'Admins can remove members only' : 'You can remove only members whose role grants less than yours');
  }
}

export function registerMemberRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/members', operationId: 'dashboardListMembers', permission: 'members.read', summary: 'The organization\'s members, oldest first',
    responses: { 200: { description: 'Members', schema: z.object({ data: z.array(memberSchema) }) } },
    async handler({ session, deps }) {
      const rows = await deps.m.Membership.find({ org_id: session.orgId }).sort({ created_at: 1, _id: 1 }).lean();
      const users = new Map((await deps.m.User.find({ _id: { $in: rows.map((r) => r.user_id) } }).lean()).map((u) => [u._id, u]));
      const groups = await groupRolesByUser(deps.m, session.orgId);
      return { body: { data: rows.map((r) => ({
        user_id: r.user_id, email: users.get(r.user_id)?.email ?? '', name: users.get(r.user_id)?.name ?? '', role: r.role as Role, joined_at: r.created_at.toISOString(),
        active: r.active !== false, group_roles: (groups.get(r.user_id) ?? []) as Role[],
      })) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/invitations', operationId: 'dashboardInvite', summary: 'Invite someone by link', permission: 'members.invite',
    description: 'Answers the link to hand over (shown once; no email is sent). Inviting the same address again replaces its earlier link. '
      + 'The role\'s permissions must all be the inviter\'s own (only owners invite owners). '
      + 'Past `max_dashboard_members` (members plus pending invitations): 402 `plan_limit_reached` with `upgrade_url`.',
    body: z.strictObject({ email: emailSchema, role: roleSchema }),
    responses: { 201: { description: 'The invitation and its link', schema: invitationSchema.extend({ invite_url: z.string() }) }, 402: { description: 'plan_limit_reached' }, 409: { description: 'already_member' } },
    async handler({ ctx, body, session, deps }) {
      if (body.role === 'owner' && session.role !== 'owner') throw new AppError(403, 'forbidden_role', 'Only an owner can invite an owner');
      await assertCanGrant(deps, session, body.role);
      const user = await deps.m.User.findOne({ email: body.email }).lean();
      if (user && await deps.m.Membership.exists({ org_id: session.orgId, user_id: user._id })) {
        throw new AppError(409, 'already_member', `email: ${body.email} is already a member`);
      }
      const token = newToken();
      const now = deps.now();
      // Under the organization's seat lock: of concurrent invitations for the last seat, one gets it.
      const inv = await withOrgLock(deps.m, session.orgId, 'seat', async () => {
        await deps.m.Invitation.deleteMany({ org_id: session.orgId, email: body.email });
        await checkLifetimeCap(deps.m, session.orgId, 'max_dashboard_members', deps.now(), deps.env.UPGRADE_URL);
        return deps.m.Invitation.create({
          org_id: session.orgId, email: body.email, role: body.role, token_hash: tokenHash(token), invited_by: session.userId,
          created_at: now, expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
        });
      });
      await auditAction(ctx, deps, session, 'member.invited', { type: 'invitation', id: inv._id, name: body.email }, { role: body.role });
      return {
        status: 201,
        body: { id: inv._id, email: inv.email, role: inv.role as Role, created_at: now.toISOString(), expires_at: inv.expires_at.toISOString(), invite_url: `${dashboardOrigin(deps.env)}/accept-invite#token=${token}` },
      };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/invitations', operationId: 'dashboardListInvitations', summary: 'Pending invitations (their links are not shown again)', permission: 'members.invite',
    responses: { 200: { description: 'Invitations', schema: z.object({ data: z.array(invitationSchema) }) } },
    async handler({ session, deps }) {
      const rows = await deps.m.Invitation.find({ org_id: session.orgId, expires_at: { $gt: deps.now() } }).sort({ created_at: 1, _id: 1 }).lean();
      return { body: { data: rows.map((i) => ({ id: i._id, email: i.email, role: i.role as Role, created_at: i.created_at.toISOString(), expires_at: i.expires_at.toISOString() })) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/invitations/:id', operationId: 'dashboardRevokeInvitation', summary: 'Revoke an invitation; its link stops working', permission: 'members.invite',
    params: z.object({ id: z.string() }), responses: noContent,
    async handler({ params, session, deps }) {
      const { deletedCount } = await deps.m.Invitation.deleteOne({ _id: params.id, org_id: session.orgId });
      if (!deletedCount) throw notFound('invitation');
      return { status: 204 };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/members/:userId', operationId: 'dashboardChangeRole', summary: 'Change a member\'s role', permission: 'members.manage',
    description: 'Takes effect on the member\'s next request. Only owners make or unmake owners; the role\'s permissions must all be the changer\'s own.',
    params: userParams, body: z.strictObject({ role: roleSchema }),
    responses: { 200: { description: 'The member', schema: memberSchema }, 409: { description: 'last_owner' } },
    async handler({ ctx, params, body, session, deps }) {
      const membership = await deps.m.Membership.findOne({ org_id: session.orgId, user_id: params.userId }).lean();
      if (!membership) throw notFound('member');
      if ((membership.role === 'owner' || body.role === 'owner') && session.role !== 'owner') throw new AppError(403, 'forbidden_role', 'Only an owner can make or change an owner');
      await assertCanGrant(deps, session, body.role);
      await assertWithinActor(deps, session, membership.role);
      if (membership.role === 'owner' && body.role !== 'owner' && await onlyOwner(deps, session.orgId, params.userId)) throw lastOwner();
      await deps.m.Membership.updateOne({ _id: membership._id }, { $set: { role: body.role } });
      const user = await deps.m.User.findById(params.userId).lean();
      await auditAction(ctx, deps, session, 'member.role_changed', { type: 'user', id: params.userId, name: user?.email ?? null }, { from: membership.role, to: body.role });
      const groups = await groupRolesByUser(deps.m, session.orgId);
      return { body: {
        user_id: params.userId, email: user?.email ?? '', name: user?.name ?? '', role: body.role, joined_at: membership.created_at.toISOString(),
        active: membership.active !== false, group_roles: (groups.get(params.userId) ?? []) as Role[],
      } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/members/:userId', operationId: 'dashboardRemoveMember', summary: 'Remove a member (or leave); their sessions in this organization end', permission: 'signed_in',
    description: 'Anyone may leave. Removing someone else needs `members.manage` (owners only are removed by owners), or `members.invite` for a member whose role grants strictly less than the remover\'s.',
    params: userParams, responses: { ...noContent, 409: { description: 'last_owner' } },
    async handler({ ctx, params, session, deps }) {
      const membership = await deps.m.Membership.findOne({ org_id: session.orgId, user_id: params.userId }).lean();
      if (!membership) throw notFound('member');
      if (params.userId !== session.userId) await assertCanRemove(deps, session, membership.role);
      if (membership.role === 'owner' && await onlyOwner(deps, session.orgId, params.userId)) throw lastOwner();
      await deps.m.Membership.deleteOne({ _id: membership._id });
      await deleteUserSessions(deps.m, params.userId, session.orgId);
      const removedUser = await deps.m.User.findById(params.userId, { email: 1 }).lean();
      await auditAction(ctx, deps, session, 'member.removed', { type: 'user', id: params.userId, name: removedUser?.email ?? null }, { role: membership.role, left: params.userId === session.userId });
      // A provisioned member leaves SCIM too: the identity provider sees the user gone (404).
      const am = await accessModels(deps.m);
      const scimUser = await am.ScimUser.findOneAndDelete({ org_id: session.orgId, user_id: params.userId }).lean();
      if (scimUser) await am.ScimGroup.updateMany({ org_id: session.orgId, members: scimUser._id }, { $pull: { members: scimUser._id }, $inc: { version: 1 }, $set: { updated_at: deps.now() } });
      return { status: 204 };
    },
  }));
}

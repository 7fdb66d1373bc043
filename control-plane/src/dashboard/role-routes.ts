/**
 * Roles: the built-in ones (every plan) and custom roles (enterprise, `custom_roles`), and the
 * role each SCIM group carries. Every member may read them (`members.read`); creating, editing
 * and deleting custom roles and mapping groups need `roles.manage` (owners). A custom role
 * grants only permissions its author holds; ownership is no permission and cannot be granted.
 * Changes apply on each member's next request (roles/resolve.ts).
 */
import { z } from 'zod';
import { accessModels, type CustomRole } from '../db/models/access-models.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { assertCanGrant } from '../roles/grant.ts';
import {
  BUILT_IN_PERMISSIONS, BUILT_IN_ROLES, CUSTOM_ROLE_PREFIX, PERMISSION_DESCRIPTIONS, PERMISSIONS, ROLE_LABELS, withinPermissions, type Permission,
} from '../roles/roles.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { noContent, roleSchema } from './schemas.ts';
import type { DashboardSession } from './session-store.ts';

const BUILT_IN_DESCRIPTIONS: Record<(typeof BUILT_IN_ROLES)[number], string> = {
  owner: 'Everything, including roles, the plan and other owners',
  admin: 'Everything but roles, the plan, single sign-on and owners',
  editor: 'Reads everything, redeploys, edits and publishes content (earlier called member)',
  viewer: 'Reads everything, changes nothing',
};

export const roleJson = z.object({
  id: z.string().describe('What `role` fields hold: a built-in name or `custom:<id>`'),
  name: z.string(), description: z.string(), built_in: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
}).meta({ id: 'DashboardRoleDefinition' });

const permissionList = z.array(z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(', ')}` }))
  .max(PERMISSIONS.length).transform((ps) => PERMISSIONS.filter((p) => ps.includes(p)));
const roleName = z.string().trim().min(1, 'must be 1-60 characters').max(60, 'must be 1-60 characters');
const roleDescription = z.string().trim().max(300, 'must be at most 300 characters');
const roleParams = z.object({ id: z.string().transform((id) => id.startsWith(CUSTOM_ROLE_PREFIX) ? id.slice(CUSTOM_ROLE_PREFIX.length) : id) });

const groupJson = z.object({
  id: z.string().describe('The SCIM group id'), display_name: z.string(), external_id: z.string().nullable(),
  members: z.number().int(), role: roleSchema.nullable(),
}).meta({ id: 'DashboardScimGroup' });

function customJson(r: CustomRole): z.infer<typeof roleJson> {
  return { id: `${CUSTOM_ROLE_PREFIX}${r._id}`, name: r.name, description: r.description ?? '', built_in: false, permissions: PERMISSIONS.filter((p) => r.permissions.includes(p)) };
}

/** 403 unless every permission of a custom role is the author's own. */
function assertWithinOwn(session: DashboardSession, permissions: Permission[]): void {
  if (withinPermissions(permissions, session.permissions)) return;
  const beyond = permissions.filter((p) => !session.permissions.includes(p));
  throw new AppError(403, 'forbidden_role', `permissions: ${beyond.join(', ')} ${beyond.length === 1 ? 'is' : 'are'} not yours to grant`);
}

const nameTaken = (name: string) => new AppError(409, 'role_name_taken', `name: ${JSON.stringify(name)} is already a role of this organization`);

async function assertNameFree(deps: Deps, orgId: string, name: string, exceptId?: string): Promise<void> {
  const lower = name.toLowerCase();
  if ((BUILT_IN_ROLES as readonly string[]).includes(lower) || lower === 'member') throw nameTaken(name);
  const clash = await (await accessModels(deps.m)).CustomRole.findOne({ org_id: orgId, name_lower: lower }, { _id: 1 }).lean();
  if (clash && clash._id !== exceptId) throw nameTaken(name);
}

export function registerRoleRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/roles', operationId: 'dashboardListRoles', permission: 'members.read', summary: 'Built-in and custom roles, and every permission',
    responses: { 200: { description: 'Roles, built-in first', schema: z.object({ data: z.array(roleJson), permissions: z.array(z.object({ id: z.enum(PERMISSIONS), description: z.string() })) }) } },
    async handler({ session, deps }) {
      const custom = await (await accessModels(deps.m)).CustomRole.find({ org_id: session.orgId }).sort({ created_at: 1, _id: 1 }).lean();
      return { body: {
        data: [
          ...BUILT_IN_ROLES.map((r) => ({ id: r, name: ROLE_LABELS[r], description: BUILT_IN_DESCRIPTIONS[r], built_in: true, permissions: [...BUILT_IN_PERMISSIONS[r]] })),
          ...custom.map(customJson),
        ],
        permissions: PERMISSIONS.map((id) => ({ id, description: PERMISSION_DESCRIPTIONS[id] })),
      } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/roles', operationId: 'dashboardCreateRole', permission: 'roles.manage', summary: 'Create a custom role (enterprise)',
    description: 'Every permission must be one you hold (403 `forbidden_role`). 402 `plan_required` without `custom_roles`; 409 `role_name_taken`.',
    body: z.strictObject({ name: roleName, description: roleDescription.optional(), permissions: permissionList }),
    responses: { 201: { description: 'The role', schema: roleJson }, 402: { description: 'plan_required' }, 409: { description: 'role_name_taken' } },
    async handler({ ctx, body, session, deps }) {
      await requireFeature(deps.m, session.orgId, 'custom_roles', deps.now(), deps.env.UPGRADE_URL);
      assertWithinOwn(session, body.permissions);
      await assertNameFree(deps, session.orgId, body.name);
      const now = deps.now();
      try {
        const created = await (await accessModels(deps.m)).CustomRole.create({
          org_id: session.orgId, name: body.name, name_lower: body.name.toLowerCase(), description: body.description ?? '',
          permissions: body.permissions, created_by: session.userId, created_at: now, updated_at: now,
        });
        await auditAction(ctx, deps, session, 'role.created', { type: 'role', id: created._id, name: body.name }, { permissions: body.permissions });
        return { status: 201, body: customJson(created.toObject() as CustomRole) };
      } catch (err) {
        if ((err as { code?: number }).code === 11000) throw nameTaken(body.name);
        throw err;
      }
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/roles/:id', operationId: 'dashboardUpdateRole', permission: 'roles.manage', summary: 'Rename a custom role or change its permissions',
    description: 'Members and groups holding the role get the new permissions on their next request.',
    params: roleParams, body: z.strictObject({ name: roleName.optional(), description: roleDescription.optional(), permissions: permissionList.optional() }),
    responses: { 200: { description: 'The role', schema: roleJson }, 402: { description: 'plan_required' }, 409: { description: 'role_name_taken' } },
    async handler({ ctx, params, body, session, deps }) {
      await requireFeature(deps.m, session.orgId, 'custom_roles', deps.now(), deps.env.UPGRADE_URL);
      const { CustomRole } = await accessModels(deps.m);
      const role = await CustomRole.findOne({ _id: params.id, org_id: session.orgId }).lean();
      if (!role) throw notFound('role');
      // Neither the old nor the new permissions may reach beyond the editor's own.
      assertWithinOwn(session, role.permissions as Permission[]);
      if (body.permissions) assertWithinOwn(session, body.permissions);
      if (body.name !== undefined) await assertNameFree(deps, session.orgId, body.name, role._id);
      const set: Record<string, unknown> = { updated_at: deps.now() };
      if (body.name !== undefined) Object.assign(set, { name: body.name, name_lower: body.name.toLowerCase() });
      if (body.description !== undefined) set.description = body.description;
      if (body.permissions) set.permissions = body.permissions;
      try {
        const updated = await CustomRole.findOneAndUpdate({ _id: role._id }, { $set: set }, { returnDocument: 'after' }).lean();
        await auditAction(ctx, deps, session, 'role.updated', { type: 'role', id: role._id, name: updated?.name ?? role.name }, { permissions: updated?.permissions ?? role.permissions });
        return { body: customJson(updated as CustomRole) };
      } catch (err) {
        if ((err as { code?: number }).code === 11000) throw nameTaken(body.name ?? role.name);
        throw err;
      }
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/roles/:id', operationId: 'dashboardDeleteRole', permission: 'roles.manage', summary: 'Delete a custom role nobody holds',
    description: '409 `role_in_use` while a member, a pending invitation or a SCIM group holds it.',
    params: roleParams, responses: { ...noContent, 409: { description: 'role_in_use' } },
    async handler({ ctx, params, session, deps }) {
      const am = await accessModels(deps.m);
      const role = await am.CustomRole.findOne({ _id: params.id, org_id: session.orgId }).lean();
      if (!role) throw notFound('role');
      assertWithinOwn(session, role.permissions as Permission[]);
      const ref = `${CUSTOM_ROLE_PREFIX}${role._id}`;
      const [members, invitations, groups] = await Promise.all([
        deps.m.Membership.countDocuments({ org_id: session.orgId, role: ref }),
        deps.m.Invitation.countDocuments({ org_id: session.orgId, role: ref, expires_at: { $gt: deps.now() } }),
        am.ScimGroup.countDocuments({ org_id: session.orgId, role: ref }),
      ]);
      if (members + invitations + groups > 0) {
        throw new AppError(409, 'role_in_use', `${JSON.stringify(role.name)} is held by ${members} member(s), ${invitations} invitation(s) and ${groups} SCIM group(s); give them another role first`);
      }
      await am.CustomRole.deleteOne({ _id: role._id });
      await auditAction(ctx, deps, session, 'role.deleted', { type: 'role', id: role._id, name: role.name });
      return { status: 204 };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/scim-groups', operationId: 'dashboardListScimGroups', permission: 'members.read', summary: 'Groups your identity provider pushed over SCIM, with their roles',
    responses: { 200: { description: 'Groups by name', schema: z.object({ data: z.array(groupJson) }) } },
    async handler({ session, deps }) {
      const groups = await (await accessModels(deps.m)).ScimGroup.find({ org_id: session.orgId }).sort({ display_name_lower: 1 }).lean();
      return { body: { data: groups.map((g) => ({ id: g._id, display_name: g.display_name, external_id: g.external_id ?? null, members: g.members.length, role: (g.role ?? null) as z.infer<typeof roleSchema> | null })) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'put', path: '/scim-groups/:id/role', operationId: 'dashboardSetScimGroupRole', permission: 'roles.manage', summary: 'Give every member of a SCIM group a role (or none)',
    description: 'Members hold the role\'s permissions on top of their own from their next request. Not `owner` (400); a custom role needs `custom_roles` (402).',
    params: z.object({ id: z.string() }), body: z.strictObject({ role: roleSchema.nullable() }),
    responses: { 200: { description: 'The group', schema: groupJson }, 402: { description: 'plan_required' } },
    async handler({ ctx, params, body, session, deps }) {
      const { ScimGroup } = await accessModels(deps.m);
      const group = await ScimGroup.findOne({ _id: params.id, org_id: session.orgId }).lean();
      if (!group) throw notFound('SCIM group');
      if (body.role === 'owner') throw invalid('role', 'Unexpected "owner"; ownership is given to a person, never through a group');
      if (body.role) await assertCanGrant(deps, session, body.role);
      const updated = await ScimGroup.findOneAndUpdate({ _id: group._id }, { $set: { role: body.role } }, { returnDocument: 'after' }).lean();
      await auditAction(ctx, deps, session, 'scim_group.role_set', { type: 'scim_group', id: group._id, name: group.display_name }, { from: group.role ?? null, to: body.role });
      return { body: { id: updated!._id, display_name: updated!.display_name, external_id: updated!.external_id ?? null, members: updated!.members.length, role: body.role } };
    },
  }));
}

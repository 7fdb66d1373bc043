/**
 * Rules for handing out roles: nobody gives a role that grants a permission they do not hold
 * (no escalation), and custom roles are assigned only while the plan has `custom_roles`.
 */
import { accessModels } from '../db/models/access-models.ts';
import type { Models } from '../db/models/index.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError, invalid } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { rolePermissions } from './resolve.ts';
import { customRoleId, withinPermissions, type Permission } from './roles.ts';

/** 400 unless `role` is a custom role of `orgId` (built-in names pass). */
export async function assertRoleExists(m: Models, orgId: string, role: string, field = 'role'): Promise<void> {
  const id = customRoleId(role);
  if (!id) return;
  if (!await (await accessModels(m)).CustomRole.exists({ _id: id, org_id: orgId })) throw invalid(field, `Unknown custom role ${JSON.stringify(role)}; expected one listed by GET /roles`);
}

/**
 * Throws unless `actor` may give `role`: a custom role needs the `custom_roles` feature (402)
 * and must exist (400); its permissions must all be the actor's (403 `forbidden_role`).
 */
export async function assertCanGrant(deps: Deps, actor: { orgId: string; permissions: readonly Permission[] }, role: string, field = 'role'): Promise<void> {
  if (customRoleId(role)) {
    await requireFeature(deps.m, actor.orgId, 'custom_roles', deps.now(), deps.env.UPGRADE_URL);
    await assertRoleExists(deps.m, actor.orgId, role, field);
  }
  const granted = (await rolePermissions(deps.m, actor.orgId, role)).permissions;
  const beyond = granted.filter((p) => !actor.permissions.includes(p));
  if (!withinPermissions(granted, actor.permissions)) {
    throw new AppError(403, 'forbidden_role', `${field}: ${JSON.stringify(role)} grants ${beyond.join(', ')}, which you do not hold`);
  }
}

/** The roles each member (by user id) holds through SCIM groups in `orgId`. */
export async function groupRolesByUser(m: Models, orgId: string): Promise<Map<string, string[]>> {
  const am = await accessModels(m);
  const groups = await am.ScimGroup.find({ org_id: orgId, role: { $type: 'string' } }, { role: 1, members: 1 }).lean();
  const out = new Map<string, string[]>();
  if (!groups.length) return out;
  const scimIds = [...new Set(groups.flatMap((g) => g.members))];
  const users = new Map((await am.ScimUser.find({ org_id: orgId, _id: { $in: scimIds } }, { user_id: 1 }).lean()).map((u) => [u._id, u.user_id]));
  for (const g of groups) {
    for (const scimId of g.members) {
      const userId = users.get(scimId);
      if (!userId) continue;
      const roles = out.get(userId) ?? [];
      if (!roles.includes(g.role as string)) roles.push(g.role as string);
      out.set(userId, roles);
    }
  }
  return out;
}

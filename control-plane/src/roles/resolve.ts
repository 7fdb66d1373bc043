/**
 * The permission resolver: what a member may do, read on every dashboard request (so a role
 * change, a custom role's edit or a SCIM group change applies on the member's next request).
 *
 * A member's permissions are their role's (built-in, alias or custom) plus those of the roles
 * mapped to every SCIM group they belong to. A custom role that was deleted grants nothing
 * beyond the default role's. Ownership never comes from a group.
 */
import { accessModels } from '../db/models/access-models.ts';
import type { Models } from '../db/models/index.ts';
import {
  builtInPermissions, builtInRoleOf, customRoleId, DEFAULT_MEMBER_ROLE, PERMISSIONS, ROLE_LABELS, type Actor, type Permission,
} from './roles.ts';

/** An {@link Actor} with a label for messages ("an admin", "the custom role Writers"). */
export interface ResolvedActor extends Actor {
  permissions: Permission[];
  /** How messages name the role: `a member`, `an admin`, `the custom role "Writers"`. */
  roleLabel: string;
}

function ordered(set: Set<Permission>): Permission[] {
  return PERMISSIONS.filter((p) => set.has(p));
}

/** The article-and-name phrase of a built-in role or alias: `a member`, `an admin`. */
export function builtInPhrase(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

/** The permissions and label of one role reference in an organization (no groups). */
export async function rolePermissions(m: Models, orgId: string, role: string): Promise<{ permissions: Permission[]; label: string; name: string }> {
  if (builtInRoleOf(role)) return { permissions: [...builtInPermissions(role)], label: builtInPhrase(role), name: ROLE_LABELS[role as keyof typeof ROLE_LABELS] };
  const id = customRoleId(role);
  const custom = id ? await (await accessModels(m)).CustomRole.findOne({ _id: id, org_id: orgId }).lean() : null;
  if (!custom) return { permissions: [...builtInPermissions(DEFAULT_MEMBER_ROLE)], label: 'a deleted custom role', name: 'Deleted role' };
  return { permissions: ordered(new Set(custom.permissions as Permission[])), label: `the custom role ${JSON.stringify(custom.name)}`, name: custom.name };
}

/** The roles mapped to the SCIM groups `userId` belongs to in `orgId`. */
export async function groupRoles(m: Models, orgId: string, userId: string): Promise<string[]> {
  const am = await accessModels(m);
  const scimUser = await am.ScimUser.findOne({ org_id: orgId, user_id: userId }, { _id: 1 }).lean();
  if (!scimUser) return [];
  const groups = await am.ScimGroup.find({ org_id: orgId, members: scimUser._id, role: { $type: 'string' } }, { role: 1 }).lean();
  return [...new Set(groups.map((g) => g.role as string))].filter((r) => r !== 'owner');
}

/** Resolves what the member holding `role` in `orgId` may do: their role plus their groups' roles. */
export async function resolveActor(m: Models, orgId: string, userId: string, role: string): Promise<ResolvedActor> {
  const own = await rolePermissions(m, orgId, role);
  const set = new Set(own.permissions);
  for (const groupRole of await groupRoles(m, orgId, userId)) {
    for (const p of (await rolePermissions(m, orgId, groupRole)).permissions) set.add(p);
  }
  return { role, permissions: ordered(set), roleLabel: own.label };
}

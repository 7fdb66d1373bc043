/**
 * Roles as the dashboard shows them (`GET /roles`): built-in and custom, each a named set of
 * permissions. The app offers only roles the signed-in member may give, the rule the server
 * applies: every permission of the role must be theirs, and only owners make owners.
 */
import { api } from './api.ts';
import { ROLE_LABELS } from './shared/labels.ts';
import type { Permission, Role, Session } from './session.ts';

export interface RoleDefinition { id: Role; name: string; description: string; built_in: boolean; permissions: Permission[] }
export interface RoleList { data: RoleDefinition[]; permissions: Array<{ id: Permission; description: string }> }

export const loadRoles = () => api<RoleList>('GET', '/roles');

/** The display name of a role reference (`member` reads as Editor). */
export function roleName(roles: RoleDefinition[] | undefined, role: Role): string {
  if (role === 'member') return 'Editor (member)';
  return roles?.find((r) => r.id === role)?.name ?? (role.startsWith('custom:') ? 'Deleted role' : ROLE_LABELS[role] ?? role);
}

/** The permissions of a role reference. */
export function permissionsOf(roles: RoleDefinition[] | undefined, role: Role): Permission[] {
  return roles?.find((r) => r.id === (role === 'member' ? 'editor' : role))?.permissions ?? [];
}

/** Whether `session` may give `role`. */
export function canGrant(session: Session, role: RoleDefinition): boolean {
  if (role.id === 'owner') return session.role === 'owner';
  return role.permissions.every((p) => session.permissions.includes(p));
}

/**
 * Roles and permissions of the dashboard: the one list every check reads (dashboard routes,
 * SCIM, single sign-on, the dashboard app through `GET /session`'s `permissions`).
 *
 * A member's role is one of the built-in roles or a custom role (`custom:<id>`, enterprise plan,
 * roles/custom-roles.ts). A role is only a named set of {@link PERMISSIONS}; ownership is the
 * one thing no permission grants: only owners make owners, and the last owner stays (409
 * `last_owner`).
 *
 * `member`, the name earlier versions gave to every non-admin, is kept as an alias of `editor`
 * with the same permissions: rows and integrations that say `member` keep their meaning and are
 * answered as stored; the dashboard offers `editor` for new members.
 */

/** Every permission, as the dashboard app and custom roles name them. */
export const PERMISSIONS = [
  'projects.read',
  'projects.write',
  'deployments.trigger',
  'domains.manage',
  'keys.manage',
  'members.read',
  'members.invite',
  'members.manage',
  'roles.manage',
  'plan.read',
  'plan.manage',
  'analytics.read',
  'settings.manage',
  'content.edit',
  'content.publish',
  'audit.read',
  'github.manage',
  'sso.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What each permission allows, for the dashboard's Roles page and the documentation. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'projects.read': 'See projects, deployments, domains and settings',
  'projects.write': 'Create, rename, reconfigure and delete projects',
  'deployments.trigger': 'Redeploy a project',
  'domains.manage': 'Add, verify and remove custom domains',
  'keys.manage': 'Create, edit and delete API keys',
  'members.read': 'See members and their roles',
  'members.invite': 'Invite people (with a role no higher than one\'s own), revoke invitations, remove members of lower roles',
  'members.manage': 'Change members\' roles and remove any member',
  'roles.manage': 'Create, edit and delete custom roles; map SCIM groups to roles',
  'plan.read': 'See the plan and its usage',
  'plan.manage': 'Change the plan',
  'analytics.read': 'See analytics',
  'settings.manage': 'Site password, outgoing webhooks and other project settings',
  'content.edit': 'Edit pages in the web editor',
  'content.publish': 'Publish edits from the web editor',
  'audit.read': 'Read the audit log',
  'github.manage': 'Connect GitHub installations and repositories',
  'sso.manage': 'Configure single sign-on',
};

/** The built-in roles, highest first. */
export const BUILT_IN_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

/** Older names still accepted and stored, with the built-in role they mean. */
export const ROLE_ALIASES = { member: 'editor' } as const satisfies Record<string, BuiltInRole>;
export type RoleAlias = keyof typeof ROLE_ALIASES;

/** Prefix of a custom role's reference in `role` fields: `custom:<id>`. */
export const CUSTOM_ROLE_PREFIX = 'custom:';

/** A role as stored on a membership or invitation and answered by the API. */
export type RoleName = BuiltInRole | RoleAlias | `custom:${string}`;

/** Built-in names and aliases: what a `role` field may hold besides a custom role. */
export const NAMED_ROLES = [...BUILT_IN_ROLES, ...Object.keys(ROLE_ALIASES) as RoleAlias[]] as const;

/**
 * The role a new member gets when nothing says otherwise (single sign-on just-in-time members,
 * SCIM users in no mapped group): read-only, so a misconfigured identity provider leaks
 * nothing it should not.
 */
export const DEFAULT_MEMBER_ROLE: BuiltInRole = 'viewer';

const READ: Permission[] = ['projects.read', 'members.read', 'plan.read', 'analytics.read'];
const EDITOR: Permission[] = [...READ, 'deployments.trigger', 'content.edit', 'content.publish'];
/** Owner only: changing roles, custom roles, the plan, single sign-on (who can sign in at all). */
const OWNER_ONLY: Permission[] = ['members.manage', 'roles.manage', 'plan.manage', 'sso.manage'];

/** The permissions of each built-in role. */
export const BUILT_IN_PERMISSIONS: Record<BuiltInRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => !OWNER_ONLY.includes(p)),
  editor: EDITOR,
  viewer: READ,
};

/** Display names of the built-in roles and aliases. */
export const ROLE_LABELS: Record<BuiltInRole | RoleAlias, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', viewer: 'Viewer', member: 'Member' };

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function isBuiltInRole(value: string): value is BuiltInRole {
  return (BUILT_IN_ROLES as readonly string[]).includes(value);
}

/** The built-in role a built-in name or alias means; undefined for a custom role or anything else. */
export function builtInRoleOf(role: string): BuiltInRole | undefined {
  if (isBuiltInRole(role)) return role;
  return Object.hasOwn(ROLE_ALIASES, role) ? ROLE_ALIASES[role as RoleAlias] : undefined;
}

/** The id in a `custom:<id>` reference, or undefined. */
export function customRoleId(role: string): string | undefined {
  return role.startsWith(CUSTOM_ROLE_PREFIX) && role.length > CUSTOM_ROLE_PREFIX.length ? role.slice(CUSTOM_ROLE_PREFIX.length) : undefined;
}

/** The permissions of a built-in role or alias (an empty list for anything else). */
export function builtInPermissions(role: string): readonly Permission[] {
  const builtIn = builtInRoleOf(role);
  return builtIn ? BUILT_IN_PERMISSIONS[builtIn] : [];
}

/** Whoever acts: a role and the permissions it resolved to (roles/resolve.ts). */
export interface Actor {
  role: string;
  permissions: readonly Permission[];
}

/** Whether `actor` holds `permission`. Every dashboard check goes through here. */
export function can(actor: Actor, permission: Permission): boolean {
  return actor.permissions.includes(permission);
}

/** Whether every permission of `granted` is also in `holder`'s (no escalation). */
export function withinPermissions(granted: readonly Permission[], holder: readonly Permission[]): boolean {
  return granted.every((p) => holder.includes(p));
}

/** The built-in roles that hold `permission`, highest first. */
export function builtInRolesWith(permission: Permission): BuiltInRole[] {
  return BUILT_IN_ROLES.filter((r) => BUILT_IN_PERMISSIONS[r].includes(permission));
}

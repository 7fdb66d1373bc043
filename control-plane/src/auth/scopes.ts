/**
 * API key scopes (spec section 5). A key created with no scopes has `scopes: null` and holds
 * every scope listed here, including ones added later, because it is resolved at check time.
 *
 * Decisions where the spec is silent: get deployment needs `deployments:read`; page search needs
 * `pages:read`; asset upload needs `projects:write` (it stores project files, like the logo);
 * `GET /me/entitlements` needs only a valid key (any scope), since every key may read its plan.
 */
export const SCOPES = [
  'projects:read',
  'projects:write',
  'pages:read',
  'pages:write',
  'deployments:read',
  'deployments:trigger',
  'analytics:read',
  'scim',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Whether a key with `granted` scopes (null = full access) holds `needed`. */
export function hasScope(granted: readonly string[] | null | undefined, needed: Scope): boolean {
  return granted == null || granted.length === 0 || granted.includes(needed);
}

/**
 * Test helpers for SCIM: requests sent the way identity providers send them
 * (`application/scim+json`, a bearer API key), and the exact bodies the server answers.
 */
import type { TestApi, TestResponse } from './api.ts';

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Calls `/v1/scim/v2{path}` with `key`. */
export function scim(api: TestApi, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return api.request(method, `/scim/v2${path}`, { key, ...(body === undefined ? {} : { raw: JSON.stringify(body) }), headers: { 'content-type': 'application/scim+json', ...headers } });
}

/** A SCIM error body. */
export function scimErrorBody(status: number, error: string, detail: string, scimType?: string, extra: Record<string, unknown> = {}) {
  return { schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail, error, message: detail, ...extra };
}

/** An organization on `plan` with a key holding only the `scim` scope. */
export async function scimTenant(api: TestApi, plan: 'free' | 'pro' | 'team' | 'enterprise' = 'team') {
  const org = await api.org(plan);
  return { orgId: org.id, key: await api.key(org.id, ['scim']) };
}

/** The base of `meta.location` and `$ref`. */
export const scimBase = (api: TestApi) => `${new URL(api.url).origin}/v1/scim/v2`;

/** The exact User resource the server answers. */
export function userBody(api: TestApi, u: {
  id: string; userName: string; externalId?: string; name?: Record<string, string>; displayName?: string; emails?: unknown[]; active?: boolean;
  groups?: Array<{ id: string; display: string }>; created: Date; modified?: Date; version?: number;
}) {
  const base = scimBase(api);
  return {
    schemas: [USER], id: u.id, ...(u.externalId ? { externalId: u.externalId } : {}), userName: u.userName,
    ...(u.name ? { name: u.name } : {}), ...(u.displayName ? { displayName: u.displayName } : {}),
    emails: u.emails ?? [], active: u.active ?? true,
    groups: (u.groups ?? []).map((g) => ({ value: g.id, display: g.display, $ref: `${base}/Groups/${g.id}`, type: 'direct' })),
    meta: { resourceType: 'User', created: u.created.toISOString(), lastModified: (u.modified ?? u.created).toISOString(), location: `${base}/Users/${u.id}`, version: `W/"${u.version ?? 1}"` },
  };
}

/** The exact Group resource the server answers. */
export function groupBody(api: TestApi, g: { id: string; displayName: string; externalId?: string; members?: Array<{ id: string; display: string }>; created: Date; modified?: Date; version?: number }) {
  const base = scimBase(api);
  return {
    schemas: [GROUP], id: g.id, ...(g.externalId ? { externalId: g.externalId } : {}), displayName: g.displayName,
    members: (g.members ?? []).map((m) => ({ value: m.id, display: m.display, $ref: `${base}/Users/${m.id}`, type: 'User' })),
    meta: { resourceType: 'Group', created: g.created.toISOString(), lastModified: (g.modified ?? g.created).toISOString(), location: `${base}/Groups/${g.id}`, version: `W/"${g.version ?? 1}"` },
  };
}

/** A ListResponse. */
export function listBody(resources: unknown[], totalResults = resources.length, startIndex = 1) {
  return { schemas: [LIST], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

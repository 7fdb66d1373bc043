/**
 * Settings, API keys: list, create (the full value is answered once), rename or change
 * scopes, delete. Owners and admins only: a key acts for the whole organization. Keys are
 * minted and listed by the same code as `npm run keys` (admin/api-keys.ts, auth/api-keys.ts).
 */
import { z } from 'zod';
import { listKeys, revokeKey, summary, updateKey } from '../admin/api-keys.ts';
import { createApiKey } from '../auth/api-keys.ts';
import { SCOPES } from '../auth/scopes.ts';
import { invalid } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { nameSchema, noContent } from './schemas.ts';

const scopesSchema = z.union([
  z.literal('all'),
  z.array(z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` })).min(1, 'must list at least one scope, or be "all"'),
], { error: 'must be "all" or a list of scopes' });

export const apiKeySchema = z.object({
  id: z.string(), name: z.string(), prefix: z.string().describe('svc_<id>: the public start of the key'),
  scopes: z.union([z.literal('all'), z.array(z.string())]), created_at: z.string(), expires_at: z.string().nullable(),
  expired: z.boolean(), last_used_at: z.string().nullable().describe('Written at most once a minute'),
}).meta({ id: 'DashboardApiKey' });
const keyParams = z.object({ id: z.string() });

export function registerApiKeyRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/api-keys', operationId: 'dashboardListApiKeys', permission: 'keys.manage', summary: 'The organization\'s API keys, oldest first',
    responses: { 200: { description: 'Keys (never their secrets)', schema: z.object({ data: z.array(apiKeySchema) }) } },
    async handler({ session, deps }) {
      return { body: { data: await listKeys(deps.m, session.orgId, deps.now()) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/api-keys', operationId: 'dashboardCreateApiKey', permission: 'keys.manage', summary: 'Create an API key',
    description: '`scopes` defaults to `all` (every scope, including scopes added later). `secret` is the full key, answered only here.',
    body: z.strictObject({ name: nameSchema, scopes: scopesSchema.optional(), expires_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z' }).optional() }),
    responses: { 201: { description: 'The key and, once, its full value', schema: z.object({ key: apiKeySchema, secret: z.string() }) } },
    async handler({ ctx, body, session, deps }) {
      const expiresAt = body.expires_at ? new Date(body.expires_at) : undefined;
      if (expiresAt && expiresAt.getTime() <= deps.now().getTime()) throw invalid('expires_at', 'must be in the future');
      const { key, id } = await createApiKey(deps.m, { orgId: session.orgId, name: body.name, scopes: body.scopes === 'all' ? undefined : body.scopes, expiresAt, createdAt: deps.now() });
      const record = await deps.m.ApiKey.findById(id).lean();
      await auditAction(ctx, deps, session, 'api_key.created', { type: 'api_key', id, name: body.name });
      return { status: 201, body: { key: summary(record!, deps.now()), secret: key } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/api-keys/:id', operationId: 'dashboardUpdateApiKey', permission: 'keys.manage', summary: 'Rename a key or change its scopes',
    description: 'An expired key answers 409 `key_expired`: it can only be deleted, never renewed.',
    params: keyParams, body: z.strictObject({ name: nameSchema.optional(), scopes: scopesSchema.optional() }),
    responses: { 200: { description: 'The key', schema: apiKeySchema }, 409: { description: 'key_expired' } },
    async handler({ ctx, params, body, session, deps }) {
      const updated = await updateKey(deps.m, session.orgId, params.id, body, deps.now());
      await auditAction(ctx, deps, session, 'api_key.updated', { type: 'api_key', id: params.id, name: updated.name }, { fields: Object.keys(body) });
      return { body: updated };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/api-keys/:id', operationId: 'dashboardDeleteApiKey', permission: 'keys.manage', summary: 'Delete a key; it stops working at once',
    params: keyParams, responses: noContent,
    async handler({ ctx, params, session, deps }) {
      await revokeKey(deps.m, params.id, session.orgId);
      await auditAction(ctx, deps, session, 'api_key.deleted', { type: 'api_key', id: params.id });
      return { status: 204 };
    },
  }));
}

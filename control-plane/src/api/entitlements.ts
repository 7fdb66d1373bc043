/** `GET /me/entitlements` (spec 2.10), read from the same resolver every server check uses. */
import { resolveEntitlements } from '../entitlements/resolver.ts';
import { defineRoute } from '../http/route.ts';
import { entitlementsSchema } from './schemas.ts';

export const entitlementRoutes = [
  defineRoute({
    method: 'get', path: '/me/entitlements', operationId: 'getEntitlements', summary: 'Read the organization\'s entitlements', tags: ['Entitlements'],
    description: 'Any valid key may read its own organization\'s plan, features and quota usage (no scope needed).',
    auth: 'key',
    responses: { 200: { description: 'Plan, status and features', schema: entitlementsSchema } },
    async handler({ auth, deps }) {
      return { body: await resolveEntitlements(deps.m, auth.orgId, deps.now()) };
    },
  }),
];

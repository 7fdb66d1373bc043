/**
 * SCIM 2.0 provisioning (spec section 4: paths under /scim/v2/ need scope `scim`). Provisioning
 * is part of single sign-on, a team-plan feature, so other plans get 402 `plan_required`.
 * Users and groups are managed by the dashboard's identity service; this surface answers the
 * discovery endpoints and empty lists until that service is connected.
 */
import { z } from 'zod';
import { requireFeature } from '../entitlements/resolver.ts';
import { defineRoute, type HandlerInput } from '../http/route.ts';

const listResponse = z.object({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  startIndex: z.number().int(),
  itemsPerPage: z.number().int(),
  Resources: z.array(z.record(z.string(), z.unknown())),
});

const TAGS = ['SCIM'];
const gate = ({ auth, deps }: HandlerInput<unknown, unknown, unknown>) =>
  requireFeature(deps.m, auth.orgId, 'single_sign_on', deps.now(), deps.env.UPGRADE_URL);

const emptyList = { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] };

export const scimRoutes = [
  defineRoute({
    method: 'get', path: '/scim/v2/ServiceProviderConfig', operationId: 'scimServiceProviderConfig', summary: 'SCIM service provider configuration', tags: TAGS,
    auth: 'scim', responses: { 200: { description: 'Capabilities', schema: z.record(z.string(), z.unknown()) }, 402: { description: 'plan_required' } },
    async handler(input) {
      await gate(input);
      return { body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: false }, bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: false, maxResults: 0 }, changePassword: { supported: false }, sort: { supported: false }, etag: { supported: false },
        authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer API key', description: 'An API key with the scim scope' }],
      } };
    },
  }),
  ...(['Users', 'Groups'] as const).map((kind) => defineRoute({
    method: 'get', path: `/scim/v2/${kind}`, operationId: `scimList${kind}`, summary: `List SCIM ${kind.toLowerCase()}`, tags: TAGS,
    auth: 'scim', responses: { 200: { description: 'SCIM list response', schema: listResponse }, 402: { description: 'plan_required' } },
    async handler(input) {
      await gate(input);
      return { body: emptyList };
    },
  })),
];

/**
 * SCIM 2.0 provisioning (RFC 7643/7644) under `/v1/scim/v2/`: Users, Groups, and discovery.
 * Every path needs an API key with scope `scim` (spec section 4) and an organization whose plan
 * has `single_sign_on` (team and above; 402 `plan_required` otherwise). Errors, from
 * authentication on, are SCIM error bodies as `application/scim+json` (scim/scim-errors.ts).
 * What each resource means for the dashboard is in scim/scim-users.ts and scim/scim-groups.ts.
 */
import { z } from 'zod';
import { requireFeature } from '../entitlements/resolver.ts';
import { defineRoute, type HandlerInput, type ResponseSpec, type RouteDef } from '../http/route.ts';
import { resourceHeaders, scimBase } from '../scim/scim-common.ts';
import { resourceTypeById, resourceTypeList, schemaById, schemaList, serviceProviderConfig } from '../scim/scim-discovery.ts';
import { formatScimError, SCIM_CONTENT_TYPE, scimError } from '../scim/scim-errors.ts';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from '../scim/scim-groups.ts';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from '../scim/scim-users.ts';

const TAGS = ['SCIM'];
const json = z.record(z.string(), z.unknown());
const ok = (description: string): ResponseSpec => ({ description, schema: json, contentType: 'application/scim+json' });
const errors = { 402: { description: 'plan_required: the plan has no single_sign_on' } };
const listQuery = z.object({
  filter: z.string().optional().describe('e.g. userName eq "ada@example.com"; eq ne co sw ew pr gt ge lt le, and, or, not (…), value filters'),
  startIndex: z.string().optional().describe('1-based index of the first result (default 1)'),
  count: z.string().optional().describe('Results per page, at most 200 (default 200)'),
  attributes: z.string().optional().describe('Comma-separated attributes to return'),
  excludedAttributes: z.string().optional().describe('Comma-separated attributes to leave out'),
});
const oneQuery = listQuery.pick({ attributes: true, excludedAttributes: true });
const idParams = z.object({ id: z.string() });
const scimBody = z.unknown().meta({ description: 'A SCIM resource, or for PATCH a PatchOp message' });
const scimHeaders = { 'Content-Type': SCIM_CONTENT_TYPE };

type Input = HandlerInput<any, any, any>;
const gate = ({ auth, deps }: Input) => requireFeature(deps.m, auth.orgId, 'single_sign_on', deps.now(), deps.env.UPGRADE_URL);

/** Common parts of every SCIM route: scope, error shape, body type. */
function scimRoute(def: Omit<RouteDef, 'auth' | 'tags' | 'formatError' | 'bodyType'>): RouteDef {
  return defineRoute({
    ...def, auth: 'scim', tags: TAGS, formatError: formatScimError, bodyType: 'scim',
    responses: { ...def.responses, ...errors },
    async handler(input) {
      await gate(input);
      return def.handler(input);
    },
  });
}

function resourceRoutes(kind: 'Users' | 'Groups', ops: {
  list: typeof listUsers; get: typeof getUser; create: typeof createUser; replace: typeof replaceUser; patch: typeof patchUser; remove: typeof deleteUser;
}): RouteDef[] {
  const one = kind.slice(0, -1);
  const path = `/scim/v2/${kind}`;
  return [
    scimRoute({
      method: 'get', path, operationId: `scimList${kind}`, summary: `List or filter ${kind.toLowerCase()}`, query: listQuery,
      responses: { 200: ok('A ListResponse') },
      async handler({ query, auth, deps }) { return { body: await ops.list(deps, auth.orgId, query), headers: scimHeaders }; },
    }),
    scimRoute({
      method: 'post', path, operationId: `scimCreate${one}`, summary: `Create a ${one.toLowerCase()}`, body: scimBody,
      description: kind === 'Users' ? 'Past `max_dashboard_members`: 402 `plan_limit_reached`. 409 `uniqueness` for a userName already provisioned.' : '409 `uniqueness` for a displayName already used.',
      responses: { 201: ok(`The ${one.toLowerCase()}, with ETag and Location`), 409: { description: 'uniqueness' } },
      async handler({ body, auth, deps }) {
        const made = await ops.create(deps, auth.orgId, body);
        return { status: 201, body: made.body, headers: resourceHeaders(made.version, made.location) };
      },
    }),
    scimRoute({
      method: 'get', path: `${path}/:id`, operationId: `scimGet${one}`, summary: `One ${one.toLowerCase()}`, params: idParams, query: oneQuery,
      responses: { 200: ok(`The ${one.toLowerCase()}, with ETag`) },
      async handler({ params, query, auth, deps }) {
        const found = await ops.get(deps, auth.orgId, params.id, query);
        return { body: found.body, headers: resourceHeaders(found.version) };
      },
    }),
    scimRoute({
      method: 'put', path: `${path}/:id`, operationId: `scimReplace${one}`, summary: `Replace a ${one.toLowerCase()}`, params: idParams, body: scimBody,
      description: 'With `If-Match`, 412 unless it names the current version.',
      responses: { 200: ok(`The ${one.toLowerCase()}`), 409: { description: 'uniqueness' }, 412: { description: 'If-Match is not the current version' } },
      async handler({ ctx, params, body, auth, deps }) {
        const out = await ops.replace(ctx, deps, auth.orgId, params.id, body);
        return { body: out.body, headers: resourceHeaders(out.version) };
      },
    }),
    scimRoute({
      method: 'patch', path: `${path}/:id`, operationId: `scimPatch${one}`, summary: `Change part of a ${one.toLowerCase()} (PatchOp add, replace, remove)`, params: idParams, body: scimBody,
      description: 'Okta and Microsoft Entra ID forms are read, capitalised ops and "True"/"False" included. With `If-Match`, 412 unless it names the current version.',
      responses: { 200: ok(`The ${one.toLowerCase()}`), 409: { description: 'uniqueness' }, 412: { description: 'If-Match is not the current version' } },
      async handler({ ctx, params, body, auth, deps }) {
        const out = await ops.patch(ctx, deps, auth.orgId, params.id, body);
        return { body: out.body, headers: resourceHeaders(out.version) };
      },
    }),
    scimRoute({
      method: 'delete', path: `${path}/:id`, operationId: `scimDelete${one}`, summary: `Delete a ${one.toLowerCase()}`, params: idParams,
      description: kind === 'Users' ? 'Removes the membership and ends its sessions; the account stays if it belongs to another organization.' : 'Its members lose the group\'s role.',
      responses: { 204: { description: 'Deleted' }, 412: { description: 'If-Match is not the current version' } },
      async handler({ ctx, params, auth, deps }) {
        await ops.remove(ctx, deps, auth.orgId, params.id);
        return { status: 204 };
      },
    }),
  ];
}

export const scimRoutes: RouteDef[] = [
  scimRoute({
    method: 'get', path: '/scim/v2/ServiceProviderConfig', operationId: 'scimServiceProviderConfig', summary: 'SCIM service provider configuration',
    responses: { 200: ok('Capabilities') },
    async handler({ deps }) { return { body: serviceProviderConfig(scimBase(deps)), headers: scimHeaders }; },
  }),
  scimRoute({
    method: 'get', path: '/scim/v2/Schemas', operationId: 'scimSchemas', summary: 'The User and Group schemas (stored attributes only)',
    responses: { 200: ok('A ListResponse of schemas') },
    async handler({ deps }) { return { body: schemaList(scimBase(deps)), headers: scimHeaders }; },
  }),
  scimRoute({
    method: 'get', path: '/scim/v2/Schemas/:id', operationId: 'scimSchema', summary: 'One schema by URN', params: idParams,
    responses: { 200: ok('The schema') },
    async handler({ params, deps }) {
      const found = schemaById(scimBase(deps), params.id);
      if (!found) throw scimError(404, undefined, `Schema ${params.id} not found`);
      return { body: found, headers: scimHeaders };
    },
  }),
  scimRoute({
    method: 'get', path: '/scim/v2/ResourceTypes', operationId: 'scimResourceTypes', summary: 'User and Group',
    responses: { 200: ok('A ListResponse of resource types') },
    async handler({ deps }) { return { body: resourceTypeList(scimBase(deps)), headers: scimHeaders }; },
  }),
  scimRoute({
    method: 'get', path: '/scim/v2/ResourceTypes/:id', operationId: 'scimResourceType', summary: 'One resource type', params: idParams,
    responses: { 200: ok('The resource type') },
    async handler({ params, deps }) {
      const found = resourceTypeById(scimBase(deps), params.id);
      if (!found) throw scimError(404, undefined, `ResourceType ${params.id} not found`);
      return { body: found, headers: scimHeaders };
    },
  }),
  ...resourceRoutes('Users', { list: listUsers, get: getUser, create: createUser, replace: replaceUser, patch: patchUser, remove: deleteUser }),
  ...resourceRoutes('Groups', { list: listGroups, get: getGroup, create: createGroup, replace: replaceGroup, patch: patchGroup, remove: deleteGroup }),
];

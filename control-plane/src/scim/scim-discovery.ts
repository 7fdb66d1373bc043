/**
 * SCIM discovery (RFC 7644 section 4): what this server supports, said truthfully:
 * PATCH, filters (at most MAX_RESULTS per page), ETags; no bulk, password changes or sorting.
 * The schemas list only the attributes that are stored.
 */
import { MAX_RESULTS } from './scim-common.ts';
import { GROUP_SCHEMA } from './scim-groups.ts';
import { USER_SCHEMA } from './scim-users.ts';

type Json = Record<string, unknown>;

export const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function serviceProviderConfig(base: string): Json {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://folio.dev/docs/scim',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer API key', description: 'An API key with the scim scope, sent as Authorization: Bearer svc_…', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

function attr(name: string, o: Partial<{ type: string; multiValued: boolean; required: boolean; caseExact: boolean; mutability: string; returned: string; uniqueness: string; subAttributes: Json[]; description: string; referenceTypes: string[] }> = {}): Json {
  return {
    name, type: o.type ?? 'string', multiValued: o.multiValued ?? false, description: o.description ?? name, required: o.required ?? false,
    caseExact: o.caseExact ?? false, mutability: o.mutability ?? 'readWrite', returned: o.returned ?? 'default', uniqueness: o.uniqueness ?? 'none',
    ...(o.subAttributes ? { subAttributes: o.subAttributes } : {}), ...(o.referenceTypes ? { referenceTypes: o.referenceTypes } : {}),
  };
}

function schemas(base: string): Json[] {
  return [
    {
      schemas: [SCHEMA_SCHEMA], id: USER_SCHEMA, name: 'User', description: 'A member of the organization\'s dashboard',
      attributes: [
        attr('userName', { required: true, uniqueness: 'server', description: 'Unique per organization, case-insensitive' }),
        attr('name', { type: 'complex', subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => attr(n)) }),
        attr('displayName'),
        attr('emails', { type: 'complex', multiValued: true, description: 'The primary (else first) is the dashboard account\'s email when the account is made', subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' }), attr('display')] }),
        attr('active', { type: 'boolean', description: 'false suspends the member and ends their sessions' }),
        attr('groups', { type: 'complex', multiValued: true, mutability: 'readOnly', subAttributes: [attr('value', { mutability: 'readOnly' }), attr('$ref', { type: 'reference', mutability: 'readOnly', referenceTypes: ['Group'] }), attr('display', { mutability: 'readOnly' }), attr('type', { mutability: 'readOnly' })] }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA], id: GROUP_SCHEMA, name: 'Group', description: 'A group of users; its role is set in the dashboard',
      attributes: [
        attr('displayName', { required: true, uniqueness: 'server', description: 'Unique per organization, case-insensitive' }),
        attr('members', { type: 'complex', multiValued: true, subAttributes: [attr('value', { mutability: 'immutable', caseExact: true }), attr('$ref', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'] }), attr('display', { mutability: 'readOnly' }), attr('type', { mutability: 'immutable' })] }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}

function resourceTypes(base: string): Json[] {
  return [
    { schemas: [RESOURCE_TYPE_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', description: 'Dashboard members', schema: USER_SCHEMA, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` } },
    { schemas: [RESOURCE_TYPE_SCHEMA], id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Groups of members, mapped to roles in the dashboard', schema: GROUP_SCHEMA, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` } },
  ];
}

const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const list = (items: Json[]) => ({ schemas: [LIST], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items });

export const schemaList = (base: string) => list(schemas(base));
export const schemaById = (base: string, id: string) => schemas(base).find((s) => s.id === id);
export const resourceTypeList = (base: string) => list(resourceTypes(base));
export const resourceTypeById = (base: string, id: string) => resourceTypes(base).find((r) => r.id === id);

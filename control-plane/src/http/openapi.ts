/**
 * The OpenAPI 3.1 document, generated from the route definitions and their zod schemas (the same
 * schemas that validate requests). JSON Schema 2020-12 is OpenAPI 3.1's schema dialect, which
 * is what `z.toJSONSchema` emits.
 */
import { z, type ZodType } from 'zod';
import type { RouteDef } from './route.ts';

const errorSchema = z.object({
  error: z.string().describe('Machine-readable code, e.g. invalid_request, unauthorized, not_found'),
  message: z.string().describe('Human-readable explanation naming the field and rule'),
});

const ERROR_RESPONSES: Record<number, string> = {
  400: 'invalid_request: a field breaks a rule, or the body is malformed (JSON, nesting over 64 levels, multipart, compression)',
  401: 'unauthorized: the API key is missing, malformed, unknown or expired',
  403: 'forbidden: the API key lacks the scope this operation needs',
  404: 'not_found: no such resource in this organization',
  413: 'payload_too_large: the body is over the size limit',
  415: 'unsupported_media_type: a body in a type, charset or Content-Encoding the operation does not read',
  500: 'internal_error',
};

/** Errors only operations that read a body can answer. */
const BODY_ERRORS = [413, 415];

/** Named schemas (`.meta({ id })`) collected into `components.schemas` while documents are built. */
type Components = Record<string, unknown>;

function jsonSchema(schema: ZodType, io: 'input' | 'output', components?: Components): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  delete generated.$schema;
  const defs = generated.$defs as Record<string, unknown> | undefined;
  delete generated.$defs;
  // Named schemas become shared components, referenced from every operation that uses them.
  const lifted = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/'));
  if (defs && components) {
    for (const [name, def] of Object.entries(defs)) components[name] ??= JSON.parse(JSON.stringify(def).replaceAll('"#/$defs/', '"#/components/schemas/'));
  }
  if (typeof generated.id === 'string' && components) {
    const { id, ...rest } = lifted;
    components[id as string] ??= rest;
    return { $ref: `#/components/schemas/${id}` };
  }
  return lifted;
}

function toOpenApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function parametersFrom(schema: ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, any>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name, in: where, required: where === 'path' || (js.required ?? []).includes(name),
    ...(s.description ? { description: s.description } : {}), schema: s,
  }));
}

/** An outgoing webhook event: what the platform POSTs to a customer's endpoint (the document's `webhooks`). */
export interface WebhookDoc { summary: string; description: string; headers: Record<string, string>; schema: ZodType }

export interface OpenApiInfo { title: string; version: string; description: string; serverUrl: string; webhooks?: Record<string, WebhookDoc> }

/** Builds the document for `routes`. */
export function buildOpenApi(routes: RouteDef[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Components = { Error: jsonSchema(errorSchema, 'output') };
  for (const r of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(r.responses)) {
      responses[status] = spec.schema
        ? { description: spec.description, content: { [spec.contentType ?? 'application/json']: { schema: jsonSchema(spec.schema, 'output', components) } } }
        : { description: spec.description };
    }
    const readsBody = Boolean(r.body) || r.method === 'post' || r.method === 'put' || r.method === 'patch';
    const errors = (r.auth === 'none' ? [400, 404, 500] : Object.keys(ERROR_RESPONSES).map(Number))
      .filter((status) => readsBody || !BODY_ERRORS.includes(status));
    for (const status of errors) {
      responses[String(status)] ??= { description: ERROR_RESPONSES[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const op: Record<string, unknown> = {
      operationId: r.operationId, summary: r.summary, ...(r.description ? { description: r.description } : {}),
      tags: r.tags ?? [], parameters: [...parametersFrom(r.params, 'path'), ...parametersFrom(r.query, 'query')],
      responses,
      security: r.auth === 'none' ? [] : [{ bearer: [] }],
      'x-required-scope': r.auth === 'none' || r.auth === 'key' ? null : r.auth,
    };
    if (r.body) {
      const type = r.bodyType === 'multipart' ? 'multipart/form-data' : r.bodyType === 'scim' ? 'application/scim+json' : 'application/json';
      op.requestBody = { required: true, content: { [type]: { schema: jsonSchema(r.body, 'input', components) } } };
    }
    (paths[toOpenApiPath(r.path)] ??= {})[r.method] = op;
  }
  const webhooks = Object.fromEntries(Object.entries(info.webhooks ?? {}).map(([name, w]) => [name, {
    post: {
      operationId: `webhook_${name.replace(/\W/g, '_')}`, summary: w.summary, description: w.description, tags: ['Webhooks'],
      parameters: Object.entries(w.headers).map(([header, description]) => ({ name: header, in: 'header', required: true, description, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(w.schema, 'output', components) } } },
      responses: { '2XX': { description: 'Received; any other answer is retried' } },
    },
  }]));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    ...(info.webhooks ? { webhooks } : {}),
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: svc_<id>_<secret>' } },
    },
  };
}

/**
 * A dereferenced OpenAPI document → one view per operation (see `ApiOperationView`), in the
 * document's order. OpenAPI 3.x is read as written; Swagger 2.0's differences (body and form
 * parameters, `host`/`basePath`/`schemes`, `securityDefinitions`, response `schema`) are mapped
 * onto the same view.
 */
import type { ApiAuth, ApiBody, ApiField, ApiOperationView, ApiResponse, ApiSchemaView, ApiServer, ApiServerVariable } from '@folio/site-template/shared/api-types.ts';
import { codeSamples } from './code-samples.ts';
import type { OpenApiDocument } from './read-spec.ts';
import { ApiPageTooLarge, claimListing, exampleOf, fieldOf, fieldsOf, pageExpansion, schemaNameOf, schemaNames, typeOf, type Expansion } from './schema-fields.ts';

type Obj = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Characters of one body's example at most (pretty-printed). */
const MAX_EXAMPLE_CHARS = 500_000;

/** Tag of operations that name none. */
export const UNTAGGED = 'Endpoints';

const isObject = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A server object's URL with its variables replaced by their defaults, without a trailing slash. */
function resolvedUrl(server: Obj): string {
  return String(server.url).replace(/\{([^}]+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole)).replace(/\/+$/, '');
}

/** The first server's URL, variables replaced by their defaults; `''` when the document names none. */
export function serverUrl(doc: OpenApiDocument): string {
  const server = Array.isArray(doc.servers) ? doc.servers.find(isObject) : undefined;
  if (server && typeof server.url === 'string') return resolvedUrl(server);
  if (typeof doc.host === 'string') {
    const scheme = Array.isArray(doc.schemes) && doc.schemes.includes('https') ? 'https' : (doc.schemes?.[0] ?? 'https');
    return `${scheme}://${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`.replace(/\/+$/, '');
  }
  return '';
}

/** Servers a Try it picker lists at most (a document may name any number; readers pick from a few). */
const MAX_SERVERS = 20;

/** A `servers` list as the picker reads it: entries with a string URL, variables with a string default. */
function serverList(list: unknown): ApiServer[] {
  if (!Array.isArray(list)) return [];
  const out: ApiServer[] = [];
  for (const entry of list.filter(isObject).slice(0, MAX_SERVERS)) {
    if (typeof entry.url !== 'string') continue;
    const server: ApiServer = { url: entry.url };
    if (text(entry.description)) server.description = text(entry.description);
    const variables: Record<string, ApiServerVariable> = {};
    for (const [name, v] of Object.entries(isObject(entry.variables) ? entry.variables : {})) {
      if (!isObject(v) || v.default === undefined) continue;
      const variable: ApiServerVariable = { default: String(v.default) };
      if (Array.isArray(v.enum) && v.enum.length) variable.enum = v.enum.map(String);
      if (text(v.description)) variable.description = text(v.description);
      variables[name] = variable;
    }
    if (Object.keys(variables).length) server.variables = variables;
    out.push(server);
  }
  return out;
}

/**
 * The servers an operation is sent to (OpenAPI 3: its own `servers`, else its path's, else the
 * document's) and the base URL shown by default: the first of them.
 */
function operationServers(pathItem: Obj, op: Obj, documentServers: DocumentServers): DocumentServers {
  for (const list of [op.servers, pathItem.servers]) {
    const servers = serverList(list);
    if (servers.length) return { server: resolvedUrl(servers[0]!), servers };
  }
  return documentServers;
}

/** The document's own base URL and servers, read once for all its operations. */
type DocumentServers = { server: string; servers: ApiServer[] };

function authOf(doc: OpenApiDocument, op: Obj): ApiAuth | undefined {
  const schemes: Obj = doc.components?.securitySchemes ?? doc.securityDefinitions ?? {};
  const requirements = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  for (const requirement of requirements) {
    for (const name of Object.keys(isObject(requirement) ? requirement : {})) {
      const s = schemes[name];
      if (!isObject(s)) continue;
      if (s.type === 'http') return { kind: String(s.scheme).toLowerCase() === 'basic' ? 'basic' : 'bearer' };
      if (s.type === 'basic') return { kind: 'basic' };
      if (s.type === 'apiKey' && typeof s.name === 'string' && ['header', 'query', 'cookie'].includes(s.in)) return { kind: s.in, name: s.name };
      if (s.type === 'oauth2' || s.type === 'openIdConnect') return { kind: 'bearer' };
    }
  }
  return undefined;
}

/** A parameter's schema: OpenAPI 3's `schema`, or Swagger 2's inline type keys. */
const paramSchema = (p: Obj): Obj => (isObject(p.schema) ? p.schema : p);

/** The media type shown: JSON first, else the first listed. */
function pickMedia(content: unknown): [string, Obj] | undefined {
  if (!isObject(content)) return undefined;
  const entries = Object.entries(content).filter(([, m]) => isObject(m)) as Array<[string, Obj]>;
  return entries.find(([t]) => /[/+]json\b/.test(t)) ?? entries[0];
}

function mediaExample(media: Obj): unknown {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = Object.values(media.examples).find((e) => isObject(e) && e.value !== undefined) as Obj | undefined;
    if (first) return first.value;
  }
  return exampleOf(media.schema);
}

const pretty = (value: unknown) => (value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A body of `schema` as pages show it: its fields (each named schema listed once per page, see `Expansion`) and example. */
export function bodyOf(state: Expansion, contentType: string, schema: unknown, example: unknown, description?: string, required?: boolean): ApiBody {
  const body: ApiBody = { contentType, type: typeOf(schema), fields: [] };
  // A body of a named schema lists it (the page's first listing of it), or links to where it is listed.
  const name = schemaNameOf(schema, state);
  if (name === undefined || claimListing(body, name, state)) body.fields = fieldsOf(schema, state);
  if (description) body.description = description;
  if (required) body.required = true;
  const shown = pretty(example);
  // Shown up to five times (the example, three code samples, the Try it body): a document's own
  // example values are not bounded by the example budget, so they are checked here.
  if (shown !== undefined && shown.length > MAX_EXAMPLE_CHARS) {
    throw new ApiPageTooLarge(`its ${contentType} example is ${(shown.length / 1_000_000).toFixed(1)} M characters; expected at most ${MAX_EXAMPLE_CHARS / 1_000_000} M`);
  }
  if (shown !== undefined) body.example = shown;
  return body;
}

function responsesOf(state: Expansion, op: Obj, swagger: boolean): ApiResponse[] {
  const responses = isObject(op.responses) ? op.responses : {};
  return Object.entries(responses).filter(([, r]) => isObject(r)).map(([status, r]: [string, Obj]) => {
    const out: ApiResponse = { status, description: text(r.description) ?? '' };
    if (swagger && isObject(r.schema)) {
      out.body = bodyOf(state, 'application/json', r.schema, r.examples?.['application/json'] ?? exampleOf(r.schema));
    } else {
      const media = pickMedia(r.content);
      if (media) out.body = bodyOf(state, media[0], media[1].schema, mediaExample(media[1]));
    }
    return out;
  });
}

const exampleText = (schema: Obj) => {
  const v = exampleOf(schema);
  return v === undefined ? 'value' : typeof v === 'string' ? v : JSON.stringify(v);
};

/** The view of one operation. */
function operationView(doc: OpenApiDocument, path: string, method: string, pathItem: Obj, op: Obj, documentServers: DocumentServers, names: ReadonlyMap<object, string>): ApiOperationView {
  const { server, servers } = operationServers(pathItem, op, documentServers);
  const swagger = typeof doc.swagger === 'string';
  // Each named schema is listed once per page: the page's own record of what it listed.
  const state = pageExpansion(names);
  // Operation parameters override the path's by name and location.
  const byKey = new Map<string, Obj>();
  for (const p of [...(pathItem.parameters ?? []), ...(op.parameters ?? [])]) if (isObject(p) && typeof p.name === 'string') byKey.set(`${p.in}:${p.name}`, p);
  const params: ApiOperationView['params'] = { path: [], query: [], header: [], cookie: [] };
  const query: Array<[string, string]> = [];
  const headers: Array<[string, string]> = [];
  let body: ApiBody | undefined;
  const form: ApiField[] = [];
  for (const p of byKey.values()) {
    if (p.in === 'body') { body = bodyOf(state, 'application/json', p.schema, exampleOf(p.schema), text(p.description), p.required === true); continue; }
    if (p.in === 'formData') { form.push(fieldOf(p.name, paramSchema(p), p.required === true, state, text(p.description))); continue; }
    if (!(p.in in params)) continue;
    params[p.in as keyof typeof params].push(fieldOf(p.name, paramSchema(p), p.in === 'path' || p.required === true, state, text(p.description)));
    if (p.required === true && p.in === 'query') query.push([p.name, exampleText(paramSchema(p))]);
    if (p.required === true && p.in === 'header') headers.push([p.name, exampleText(paramSchema(p))]);
  }
  if (form.length && !body) body = { contentType: 'application/x-www-form-urlencoded', type: 'object', fields: form };
  if (!swagger && isObject(op.requestBody)) {
    const media = pickMedia(op.requestBody.content);
    if (media) body = bodyOf(state, media[0], media[1].schema, mediaExample(media[1]), text(op.requestBody.description), op.requestBody.required === true);
  }
  const auth = authOf(doc, op);
  const upper = method.toUpperCase();
  const example = body?.example === undefined ? undefined : /[/+]json\b/.test(body.contentType) ? JSON.parse(body.example) : body.example;
  const view: ApiOperationView = {
    method: upper, path, server, tag: text(op.tags?.[0]) ?? UNTAGGED, params, responses: responsesOf(state, op, swagger),
    samples: codeSamples({ method: upper, url: server + path, query, headers, ...(auth ? { auth } : {}), ...(body ? { body: { contentType: body.contentType, value: example ?? {} } } : {}) }),
  };
  if (text(op.operationId)) view.operationId = text(op.operationId);
  if (text(op.summary)) view.summary = text(op.summary);
  if (text(op.description)) view.description = text(op.description);
  if (op.deprecated === true) view.deprecated = true;
  if (body) view.body = body;
  if (auth) view.auth = auth;
  // A picker only when there is a choice to make: several servers, or variables to fill in.
  if (servers.length > 1 || servers.some((x) => x.variables)) view.servers = servers;
  return view;
}

/** What one operation is found by: a method and path of `paths`, or (OpenAPI 3.1) a webhook's name. */
export type OperationRef = { method: string; path: string } | { webhook: string };

/** The page heading's form of a reference: `GET /users`, `webhook orderUpdated`. */
export const operationLabel = (ref: OperationRef) => ('webhook' in ref ? `webhook ${ref.webhook}` : `${ref.method.toUpperCase()} ${ref.path}`);

/** Every operation of the document as references name them (`GET /users`, `webhook name`), in its order. */
export function operationLabels(doc: OpenApiDocument): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) if ((METHODS as readonly string[]).includes(method) && isObject(op)) out.push(`${method.toUpperCase()} ${path}`);
  }
  for (const [name, item] of Object.entries(isObject(doc.webhooks) ? doc.webhooks : {})) if (isObject(item)) out.push(`webhook ${name}`);
  return out;
}

/**
 * The view of the one operation `ref` names (method case-insensitive), `undefined` when the
 * document has none. A webhook's view carries its name as `path` and `webhook: true`: no
 * samples, nothing for Try it to send.
 *
 * @throws ApiPageTooLarge when its page exceeds a limit.
 */
export function operationViewOf(doc: OpenApiDocument, ref: OperationRef): ApiOperationView | undefined {
  const documentServers: DocumentServers = { server: serverUrl(doc), servers: serverList(doc.servers) };
  if ('webhook' in ref) {
    const item = isObject(doc.webhooks) ? doc.webhooks[ref.webhook] : undefined;
    if (!isObject(item)) return undefined;
    const method = METHODS.find((m) => isObject(item[m]));
    if (!method) return undefined;
    const view = operationView(doc, ref.webhook, method, item, item[method], documentServers, schemaNames(doc));
    return { ...view, samples: [], webhook: true };
  }
  const item = isObject(doc.paths) ? doc.paths[ref.path] : undefined;
  const method = ref.method.toLowerCase();
  if (!isObject(item) || !(METHODS as readonly string[]).includes(method) || !isObject(item[method])) return undefined;
  return operationView(doc, ref.path, method, item, item[method], documentServers, schemaNames(doc));
}

/** The names of the document's schemas (`components.schemas`, Swagger's `definitions`), in its order. */
export function schemaLabels(doc: OpenApiDocument): string[] {
  return [...schemaNames(doc).values()];
}

/**
 * The view of the named schema `name` on a page of its own, `undefined` when the document has
 * none of that name. Its properties are listed as a body's are (each named schema once).
 *
 * @throws ApiPageTooLarge when its page exceeds a limit.
 */
export function schemaViewOf(doc: OpenApiDocument, name: string): ApiSchemaView | undefined {
  const schema = [doc.components?.schemas, doc.definitions].find((group) => isObject(group) && isObject(group[name]))?.[name];
  if (!isObject(schema)) return undefined;
  const state = pageExpansion(schemaNames(doc));
  const view: ApiSchemaView = { name, type: typeOf(schema), fields: [] };
  if (claimListing(view, name, state)) view.fields = fieldsOf(schema, state);
  // The page's own listing: not a link to itself.
  delete view.repeat;
  if (text(schema.description)) view.description = text(schema.description);
  const example = bodyOf(state, 'application/json', schema, exampleOf(schema)).example;
  if (example !== undefined) view.example = example;
  return view;
}

/** One operation of the document: its view, or why its page is too large to make. */
export type OperationEntry =
  | { operation: string; view: ApiOperationView }
  | { operation: string; tooLarge: string };

/**
 * Every operation of the document, in its order, made as it is asked for (so a caller need not
 * hold every view at once); one whose page exceeds a limit is `tooLarge` (the reason).
 */
export function* operationEntries(doc: OpenApiDocument): Generator<OperationEntry> {
  const documentServers: DocumentServers = { server: serverUrl(doc), servers: serverList(doc.servers) };
  const names = schemaNames(doc);
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    // Methods in the order the document writes them.
    for (const [method, op] of Object.entries(item)) {
      if (!(METHODS as readonly string[]).includes(method) || !isObject(op)) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      let entry: OperationEntry;
      try {
        entry = { operation, view: operationView(doc, path, method, item, op, documentServers, names) };
      } catch (err) {
        if (!(err instanceof ApiPageTooLarge)) throw err;
        entry = { operation, tooLarge: err.message };
      }
      yield entry;
    }
  }
}

/**
 * Every operation's view, in the document's order.
 *
 * @throws ApiPageTooLarge for the first operation whose page exceeds a limit.
 */
export function operationViews(doc: OpenApiDocument): ApiOperationView[] {
  return [...operationEntries(doc)].map((e) => {
    if ('tooLarge' in e) throw new ApiPageTooLarge(e.tooLarge);
    return e.view;
  });
}

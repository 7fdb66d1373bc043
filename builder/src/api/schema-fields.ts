/**
 * JSON Schema (as found in a dereferenced OpenAPI document) → what a reference page shows:
 * display types, field lists and example values.
 *
 * Dereferencing shares objects: every `$ref` to `#/components/schemas/Pet` becomes the one `Pet`
 * object, so a document of a few kilobytes (six schemas of twelve properties, each a `$ref` to
 * the next) stands for millions of nested properties, and cyclic documents (a `Node` whose
 * `children` are `Node`s) for infinitely many. Every walk here is therefore bounded:
 * - a named schema's properties are listed once per page, where it first appears; every later
 *   field of that schema (and a cycle back to it) is a link to that listing (`repeat`);
 * - unnamed cycles are cut, and nesting stops at `MAX_DEPTH` levels whatever the schema;
 * - a page lists at most `MAX_PAGE_FIELDS` fields of `MAX_PAGE_FIELD_CHARS` characters, else
 *   the page fails ({@link ApiPageTooLarge}) with a message saying what to change;
 * - an example built from a schema holds at most `MAX_EXAMPLE_VALUES` values, and a display
 *   type is made from at most `MAX_TYPE_VISITS` schemas.
 */
import type { ApiField } from '@folio/site-template/shared/api-types.ts';
import type { OpenApiDocument } from './read-spec.ts';

type Schema = Record<string, any>;

/** Nesting shown at most; deeper properties are left to the schema's own documentation. */
export const MAX_DEPTH = 5;
/** Properties listed per object at most (some generated schemas list hundreds). */
const MAX_PROPERTIES = 200;
/** Fields (parameters, body and response properties at every level) one page lists at most. */
export const MAX_PAGE_FIELDS = 5_000;
/** Characters of those fields (names, types, descriptions, defaults, allowed values) at most. */
export const MAX_PAGE_FIELD_CHARS = 2_000_000;
/** Values (objects, arrays, scalars) of one example made from a schema; past it, properties are left out. */
export const MAX_EXAMPLE_VALUES = 500;
/** Schemas one display type is made from at most (unions of unions of arrays…); past it, `any`. */
const MAX_TYPE_VISITS = 64;

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Thrown when a page would list more than its limits allow; `message` is the customer's part. */
export class ApiPageTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiPageTooLarge';
  }
}

/**
 * What one page has expanded so far: which named schemas it listed (and where), and how many
 * fields of how many characters. Made by {@link pageExpansion} for each page.
 */
export interface Expansion {
  /** The document's named schemas by identity (`components.schemas`, Swagger's `definitions`). */
  readonly names: ReadonlyMap<object, string>;
  /** Schema name → the element id of its listing on this page. */
  readonly listed: Map<string, string>;
  readonly anchors: Set<string>;
  fields: number;
  chars: number;
}

/** The named schemas of a dereferenced document, by identity: a `$ref` to one is that very object. */
export function schemaNames(doc: OpenApiDocument): Map<object, string> {
  const names = new Map<object, string>();
  for (const group of [doc.components?.schemas, doc.definitions]) {
    if (!isObject(group)) continue;
    for (const [name, schema] of Object.entries(group)) if (isObject(schema) && !names.has(schema)) names.set(schema, name);
  }
  return names;
}

/** A fresh expansion for one page. */
export function pageExpansion(names: ReadonlyMap<object, string> = new Map()): Expansion {
  return { names, listed: new Map(), anchors: new Set(), fields: 0, chars: 0 };
}

/** `allOf` parts merged into one schema (properties and required lists joined). */
export function merged(schema: Schema, seen: Set<unknown> = new Set()): Schema {
  if (!Array.isArray(schema.allOf) || seen.has(schema)) return schema;
  const out: Schema = { ...schema, properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  delete out.allOf;
  const inner = new Set([...seen, schema]);
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const m = merged(part, inner);
    Object.assign(out.properties, m.properties ?? {});
    out.required.push(...(m.required ?? []));
    for (const key of ['type', 'description', 'example', 'format', 'items'] as const) if (out[key] === undefined && m[key] !== undefined) out[key] = m[key];
  }
  return out;
}

/** `string`, `integer<int64>`, `array<object>`, `string | null`, `object`, `any`. */
export function typeOf(raw: unknown): string {
  const budget = { visits: MAX_TYPE_VISITS };
  return typeWithin(raw, new Set(), budget);
}

function typeWithin(raw: unknown, seen: Set<unknown>, budget: { visits: number }): string {
  if (!isObject(raw) || seen.has(raw) || --budget.visits < 0) return 'any';
  const schema = merged(raw);
  const inner = new Set([...seen, raw]);
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union)) return [...new Set(union.map((s: unknown) => typeWithin(s, inner, budget)))].join(' | ') || 'any';
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : schema.items ? ['array'] : [];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  if (!types.length) return schema.enum ? typeof schema.enum[0] : 'any';
  return types.map((t) => {
    if (t === 'array') return `array<${typeWithin(schema.items, inner, budget)}>`;
    return schema.format && t !== 'null' ? `${t}<${schema.format}>` : String(t);
  }).join(' | ');
}

/**
 * The object schema whose properties a field lists (itself, its array items, or its first union
 * member with properties), and the name of the first named schema on the way there.
 */
function holderOf(raw: unknown, names: ReadonlyMap<object, string>, seen: Set<unknown> = new Set()): { holder: Schema; name?: string } | undefined {
  if (!isObject(raw) || seen.has(raw)) return undefined;
  // `allOf: [{ $ref }]` (a reference with siblings, as OpenAPI 3.0 writes it) is that schema.
  const parts = Array.isArray(raw.allOf) ? raw.allOf.filter(isObject) : [];
  const own = names.get(raw) ?? (parts.length === 1 && !isObject(raw.properties) ? names.get(parts[0]) : undefined);
  const found = ((): { holder: Schema; name?: string } | undefined => {
    const schema = merged(raw);
    if (isObject(schema.properties)) return { holder: schema };
    const inner = new Set([...seen, raw]);
    if (isObject(schema.items)) return holderOf(schema.items, names, inner);
    const union = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(union)) for (const s of union) { const h = holderOf(s, names, inner); if (h) return h; }
    return undefined;
  })();
  return found && own !== undefined ? { holder: found.holder, name: own } : found;
}

const json = (v: unknown) => JSON.stringify(v);

/** A unique element id for the listing of schema `name`. */
function anchorFor(name: string, state: Expansion): string {
  const base = `schema-${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'schema'}`;
  let anchor = base;
  for (let n = 2; state.anchors.has(anchor); n++) anchor = `${base}-${n}`;
  state.anchors.add(anchor);
  return anchor;
}

/** Counts a field against the page's limits. */
function count(field: ApiField, state: Expansion): void {
  state.fields++;
  state.chars += field.name.length + field.type.length + (field.description?.length ?? 0) + (field.default?.length ?? 0)
    + (field.enum ?? []).reduce((n, v) => n + v.length, 0);
  if (state.fields > MAX_PAGE_FIELDS) {
    throw new ApiPageTooLarge(`its parameters and schemas list more than ${MAX_PAGE_FIELDS.toLocaleString('en-US')} fields (each named schema listed once); expected at most ${MAX_PAGE_FIELDS.toLocaleString('en-US')}`);
  }
  if (state.chars > MAX_PAGE_FIELD_CHARS) {
    throw new ApiPageTooLarge(`its parameters and schemas list more than ${MAX_PAGE_FIELD_CHARS / 1_000_000} M characters of names, types and descriptions (each named schema listed once); expected at most ${MAX_PAGE_FIELD_CHARS / 1_000_000} M`);
  }
}

/**
 * Marks `target` (a field or a body) as showing the named schema `name`: its first listing on the
 * page (an anchor is made; returns true: list the properties), or a repeat (returns false).
 */
export function claimListing(target: { schema?: string; anchor?: string; repeat?: boolean }, name: string, state: Expansion): boolean {
  target.schema = name;
  const known = state.listed.get(name);
  if (known !== undefined) {
    target.anchor = known;
    target.repeat = true;
    return false;
  }
  target.anchor = anchorFor(name, state);
  state.listed.set(name, target.anchor);
  return true;
}

/**
 * One field (a parameter, or a property named `name`) of `schema`; `path`: the schemas of the
 * objects it is nested in, outermost first.
 */
export function fieldOf(name: string, raw: unknown, required: boolean, state: Expansion, description?: string, path: unknown[] = []): ApiField {
  const schema = isObject(raw) ? merged(raw) : {};
  const field: ApiField = { name, type: typeOf(raw) };
  if (required) field.required = true;
  if (schema.deprecated === true) field.deprecated = true;
  const text = description ?? schema.description;
  if (typeof text === 'string' && text.trim()) field.description = text.trim();
  if (schema.default !== undefined) field.default = json(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length) field.enum = schema.enum.slice(0, 50).map(json);
  count(field, state);
  const found = holderOf(raw, state.names);
  // A named schema cut by depth is not claimed: a shallower field lists it.
  if (!found || path.length >= MAX_DEPTH) return field;
  if (found.name !== undefined && !claimListing(field, found.name, state)) return field;
  const children = fieldsOf(raw, state, path);
  if (children.length) field.children = children;
  return field;
}

/**
 * The properties of an object schema (or of its array items) as fields; `[]` for scalars,
 * cycles and depth past `MAX_DEPTH`. Named schemas below are listed once per page (see
 * {@link Expansion}); the caller claims `raw`'s own name when it has one.
 */
export function fieldsOf(raw: unknown, state: Expansion, path: unknown[] = []): ApiField[] {
  const found = holderOf(raw, state.names);
  if (!found || path.length >= MAX_DEPTH || path.includes(raw) || path.includes(found.holder)) return [];
  const { holder } = found;
  const required = new Set<string>(Array.isArray(holder.required) ? holder.required : []);
  return Object.entries(holder.properties as Schema).slice(0, MAX_PROPERTIES)
    .map(([name, prop]) => fieldOf(name, prop, required.has(name), state, undefined, [...path, raw]));
}

/** The name of `raw`'s named schema, when a body lists one (the schema itself, its items, a union member). */
export function schemaNameOf(raw: unknown, state: Expansion): string | undefined {
  return holderOf(raw, state.names)?.name;
}

const FORMAT_EXAMPLES: Record<string, unknown> = {
  'date-time': '2024-01-15T09:30:00Z', date: '2024-01-15', email: 'user@example.com', uri: 'https://example.com',
  url: 'https://example.com', uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6', hostname: 'example.com', ipv4: '192.0.2.1',
};

/**
 * An example value of `schema`: its `example`, `examples[0]`, `default`, first `enum` value, or
 * one made from its type, of at most `MAX_EXAMPLE_VALUES` values made (properties past that are
 * left out, as are cycles and nesting past `MAX_DEPTH`).
 */
export function exampleOf(raw: unknown): unknown {
  return exampleWithin(raw, [], { values: MAX_EXAMPLE_VALUES });
}

function exampleWithin(raw: unknown, path: unknown[], budget: { values: number }): unknown {
  if (!isObject(raw) || path.includes(raw) || path.length > MAX_DEPTH || budget.values <= 0) return undefined;
  budget.values--;
  const schema = merged(raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const inner = [...path, raw];
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union) && union.length) return exampleWithin(union.find((s: Schema) => s?.type !== 'null') ?? union[0], inner, budget);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((schema.properties ?? {}) as Schema).slice(0, MAX_PROPERTIES)) {
        if (budget.values <= 0) break;
        const value = exampleWithin(prop, inner, budget);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleWithin(schema.items, inner, budget);
      return item === undefined ? [] : [item];
    }
    case 'string': return FORMAT_EXAMPLES[schema.format] ?? 'string';
    case 'integer': return 0;
    case 'number': return 0;
    case 'boolean': return true;
    case 'null': return null;
    default: return undefined;
  }
}

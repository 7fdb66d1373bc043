/**
 * JSON Schema (as found in a dereferenced OpenAPI document) → what a reference page shows:
 * display types, field lists and example values. Dereferenced documents can be cyclic (a
 * `Node` whose `children` are `Node`s), so every walk carries the schemas on its path and stops
 * at a repeat, and at `MAX_DEPTH` levels whatever the schema.
 */
import type { ApiField } from '@folio/site-template/shared/api-types.ts';

type Schema = Record<string, any>;

/** Nesting shown at most; deeper properties are left to the schema's own documentation. */
export const MAX_DEPTH = 5;
/** Properties listed per object at most (some generated schemas list hundreds). */
const MAX_PROPERTIES = 200;

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** `allOf` parts merged into one schema (properties and required lists joined). */
export function merged(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const out: Schema = { ...schema, properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  delete out.allOf;
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const m = merged(part);
    Object.assign(out.properties, m.properties ?? {});
    out.required.push(...(m.required ?? []));
    for (const key of ['type', 'description', 'example', 'format', 'items'] as const) if (out[key] === undefined && m[key] !== undefined) out[key] = m[key];
  }
  return out;
}

/** `string`, `integer<int64>`, `array<object>`, `string | null`, `object`, `any`. */
export function typeOf(raw: unknown, seen: Set<unknown> = new Set()): string {
  if (!isObject(raw) || seen.has(raw)) return 'any';
  const schema = merged(raw);
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union)) {
    const inner = new Set([...seen, raw]);
    return [...new Set(union.map((s: unknown) => typeOf(s, inner)))].join(' | ') || 'any';
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : schema.items ? ['array'] : [];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  if (!types.length) return schema.enum ? typeof schema.enum[0] : 'any';
  return types.map((t) => {
    if (t === 'array') return `array<${typeOf(schema.items, new Set([...seen, raw]))}>`;
    return schema.format && t !== 'null' ? `${t}<${schema.format}>` : String(t);
  }).join(' | ');
}

/** The object schema whose properties a field lists: itself, its array items, or its first union member with properties. */
function propertiesHolder(raw: unknown): Schema | undefined {
  if (!isObject(raw)) return undefined;
  const schema = merged(raw);
  if (isObject(schema.properties)) return schema;
  if (isObject(schema.items)) return propertiesHolder(schema.items);
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union)) for (const s of union) { const h = propertiesHolder(s); if (h) return h; }
  return undefined;
}

const json = (v: unknown) => JSON.stringify(v);

/** One field (a parameter, or a property named `name`) of `schema`. */
export function fieldOf(name: string, raw: unknown, required: boolean, description?: string, path: unknown[] = []): ApiField {
  const schema = isObject(raw) ? merged(raw) : {};
  const field: ApiField = { name, type: typeOf(raw) };
  if (required) field.required = true;
  if (schema.deprecated === true) field.deprecated = true;
  const text = description ?? schema.description;
  if (typeof text === 'string' && text.trim()) field.description = text.trim();
  if (schema.default !== undefined) field.default = json(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length) field.enum = schema.enum.slice(0, 50).map(json);
  const children = fieldsOf(raw, [...path, raw]);
  if (children.length) field.children = children;
  return field;
}

/** The properties of an object schema (or of its array items) as fields; `[]` for scalars, cycles and depth past `MAX_DEPTH`. */
export function fieldsOf(raw: unknown, path: unknown[] = []): ApiField[] {
  const holder = propertiesHolder(raw);
  if (!holder || path.length >= MAX_DEPTH || path.includes(holder) || path.slice(0, -1).includes(raw)) return [];
  const required = new Set<string>(Array.isArray(holder.required) ? holder.required : []);
  return Object.entries(holder.properties as Schema).slice(0, MAX_PROPERTIES)
    .map(([name, prop]) => fieldOf(name, prop, required.has(name), undefined, [...path, holder]));
}

const FORMAT_EXAMPLES: Record<string, unknown> = {
  'date-time': '2024-01-15T09:30:00Z', date: '2024-01-15', email: 'user@example.com', uri: 'https://example.com',
  url: 'https://example.com', uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6', hostname: 'example.com', ipv4: '192.0.2.1',
};

/** An example value of `schema`: its `example`, `examples[0]`, `default`, first `enum` value, or one made from its type. */
export function exampleOf(raw: unknown, path: unknown[] = []): unknown {
  if (!isObject(raw) || path.includes(raw) || path.length > MAX_DEPTH) return undefined;
  const schema = merged(raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const inner = [...path, raw];
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union) && union.length) return exampleOf(union.find((s: Schema) => s?.type !== 'null') ?? union[0], inner);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((schema.properties ?? {}) as Schema).slice(0, MAX_PROPERTIES)) {
        const value = exampleOf(prop, inner);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items, inner);
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

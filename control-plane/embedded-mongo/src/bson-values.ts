import { Binary, Decimal128, ObjectId, Timestamp, type Document } from 'bson';

/**
 * A canonical string for any stored value, equal for values MongoDB considers equal in an index
 * (1, 1.0 and 1n are the same key; key order of sub-documents matters as it does in mongod).
 * Used for `_id` lookup and unique-index keys.
 */
export function keyOf(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return `n:${Object.is(value, -0) ? 0 : value}`;
    case 'bigint':
      return `n:${value}`;
    case 'string':
      return `s:${JSON.stringify(value)}`;
    case 'boolean':
      return `b:${value}`;
    default:
      break;
  }
  if (value instanceof ObjectId) return `o:${value.toHexString()}`;
  if (value instanceof Date) return `d:${value.getTime()}`;
  if (value instanceof Decimal128) return `n:${Number(value.toString())}`;
  if (value instanceof Binary) return `x:${value.sub_type}:${Buffer.from(value.buffer).toString('base64')}`;
  if (value instanceof Timestamp) return `t:${value.toString()}`;
  if (value instanceof RegExp) return `r:${value.source}/${value.flags}`;
  if (Array.isArray(value)) return `[${value.map(keyOf).join(',')}]`;
  const entries = Object.entries(value as Document).map(([k, v]) => `${JSON.stringify(k)}:${keyOf(v)}`);
  return `{${entries.join(',')}}`;
}

/**
 * Deep copy of a document: plain objects, arrays and dates are copied; BSON value classes
 * (ObjectId, Binary, Decimal128, ...) are immutable in practice and shared. structuredClone
 * would strip their prototypes.
 */
export function cloneDoc<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDoc) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Document = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneDoc(v);
    return out as T;
  }
  return value;
}

/**
 * Values at a dotted path. Arrays along the way fan out, as in MongoDB multikey indexes; a path
 * that does not exist yields no values.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  const parts = path.split('.');
  let current: unknown[] = [doc];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const v of current) {
      if (Array.isArray(v)) {
        if (/^\d+$/.test(part) && Number(part) < v.length) next.push(v[Number(part)]);
        else for (const item of v) if (item && typeof item === 'object' && !Array.isArray(item) && part in item) next.push((item as Document)[part]);
      } else if (v && typeof v === 'object' && part in (v as Document)) {
        next.push((v as Document)[part]);
      }
    }
    current = next;
  }
  return current;
}

/** Formats a value the way mongod prints it inside E11000 messages (`"x"`, `12`, `ObjectId('…')`). */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (value instanceof Decimal128) return value.toString();
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Document);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${k}: ${formatValue(v)}`).join(', ')} }`;
  }
  return String(value);
}

/** True when a document has at least one key starting with `$` (an operator update). */
export function isOperatorDoc(doc: unknown): boolean {
  return !!doc && typeof doc === 'object' && !Array.isArray(doc) && Object.keys(doc as Document).some((k) => k.startsWith('$'));
}

/**
 * A native path for the update shapes counters use: `$inc` of numbers and `$addToSet` of plain
 * values (one, or `$each` of several) at field paths through sub-documents. mingo's updater
 * builds a fresh operator context for every call, which made each upsert of an analytics batch
 * cost as much as a small query. Anything else (another operator, an array or a non-document
 * along a path, a BSON number object under `$inc`, paths that overlap) returns undefined and
 * mingo applies the update. `$inc` of a string, boolean, null, array or sub-document is refused
 * with mongod's TypeMismatch (14), which mingo's updater would pass over silently.
 *
 * Copy-on-write: the result shares unchanged sub-documents with `doc`, which is never modified
 * (stored documents are immutable once stored).
 */
import type { Document } from 'bson';
import { MongoCommandError } from './errors.ts';

const FAST_OPERATORS = new Set(['$inc', '$addToSet']);

const isPlainObject = (v: unknown): v is Document => !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const isSetValue = (v: unknown): boolean => typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && !Number.isNaN(v));

/** Path segments of a plain field path, or undefined for `_id`, positional or numeric parts. */
function segments(path: string): string[] | undefined {
  const parts = path.split('.');
  if (parts[0] === '_id' || parts.some((p) => p === '' || p.startsWith('$') || /^\d+$/.test(p))) return undefined;
  return parts;
}

/** Whether any path equals another or lies inside it (mongod refuses such updates). */
function overlapping(paths: string[]): boolean {
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return true;
  return false;
}

/**
 * `doc` with `modifier` (operators other than `$setOnInsert`) applied, and whether anything
 * changed; undefined when the modifier is not one of the shapes handled here.
 */
export function fastModify(doc: Document, modifier: Document): { doc: Document; changed: boolean } | undefined {
  const ops = Object.entries(modifier);
  if (ops.some(([op, fields]) => !FAST_OPERATORS.has(op) || !isPlainObject(fields))) return undefined;
  const paths = ops.flatMap(([, fields]) => Object.keys(fields as Document));
  if (overlapping(paths)) return undefined;
  const root: Document = { ...doc };
  const copied = new Set<Document>([root]);
  /** The (copied) document holding the last segment, creating missing ones; undefined when not a document. */
  const parentOf = (parts: string[]): Document | undefined => {
    let at = root;
    for (const p of parts.slice(0, -1)) {
      let next = at[p];
      if (next === undefined) next = {};
      else if (!isPlainObject(next)) return undefined;
      else if (!copied.has(next)) next = { ...next };
      copied.add(next);
      at[p] = next;
      at = next;
    }
    return at;
  };
  let changed = false;
  for (const [op, fields] of ops) {
    for (const [path, arg] of Object.entries(fields as Document)) {
      const parts = segments(path);
      const parent = parts && parentOf(parts);
      if (!parts || !parent) return undefined;
      const leaf = parts[parts.length - 1];
      const current = parent[leaf];
      if (op === '$inc') {
        if (typeof arg !== 'number' || !Number.isFinite(arg)) return undefined;
        if (current === undefined) { parent[leaf] = arg; changed = true; continue; }
        if (typeof current === 'string' || typeof current === 'boolean' || current === null || Array.isArray(current) || isPlainObject(current)) {
          const type = current === null ? 'null' : Array.isArray(current) ? 'array' : isPlainObject(current) ? 'object' : typeof current === 'boolean' ? 'bool' : 'string';
          throw new MongoCommandError(14, 'TypeMismatch', `Cannot apply $inc to a value of non-numeric type. {_id: ${JSON.stringify(doc._id)}} has the field '${path}' of non-numeric type ${type}`);
        }
        if (typeof current !== 'number') return undefined;
        if (arg !== 0) { parent[leaf] = current + arg; changed = true; }
        continue;
      }
      const each = isPlainObject(arg) ? arg.$each : [arg];
      if (isPlainObject(arg) && Object.keys(arg).length !== 1) return undefined;
      if (!Array.isArray(each) || each.length === 0 || !each.every(isSetValue)) return undefined;
      if (current !== undefined && !Array.isArray(current)) return undefined;
      const list = current === undefined ? [] : current as unknown[];
      const added = each.filter((v, i) => !list.includes(v) && each.indexOf(v) === i);
      if (current === undefined || added.length > 0) { parent[leaf] = [...list, ...added]; changed = true; }
    }
  }
  return { doc: changed ? root : doc, changed };
}

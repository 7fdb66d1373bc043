/**
 * A native predicate for the simple filters most reads use (`{ project_id: "p", kind: { $in: [...] },
 * ts: { $gte: d1, $lt: d2 }, bot: false, path: { $ne: null } }`, and `$or`/`$and` of such), so selecting documents does not
 * go through mingo's general evaluator document by document. Only shapes whose meaning is
 * unambiguous are compiled: top-level fields compared with strings, finite numbers, booleans,
 * null and dates. A document whose field holds anything else (an array, a sub-document, another
 * BSON type) is handed to the full mingo filter, so the answer is always mongod's.
 */
import type { Document } from 'bson';
import type { Query } from 'mingo/query';
import { compileFilter } from './mingo-context.ts';

type Scalar = string | number | boolean | null | Date;
type Test = (v: unknown) => boolean | undefined;

const RANGE_OPS = new Set(['$gt', '$gte', '$lt', '$lte']);

const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || v instanceof Date;

/** A stored value the native tests understand (anything else defers to mingo). */
const isPlain = (v: unknown): boolean => v === undefined || isScalar(v);

/** Equality as mongod sees it for plain values: numbers by value, dates by instant, null matches missing. */
function equals(stored: unknown, wanted: Scalar): boolean {
  if (wanted === null) return stored === null || stored === undefined;
  if (wanted instanceof Date) return stored instanceof Date && stored.getTime() === wanted.getTime();
  return stored === wanted;
}

/** Range comparisons only within one type bracket (numbers with numbers, dates with dates), as mongod does. */
function rangeTest(op: string, bound: number | Date): (v: unknown) => boolean {
  const b = bound instanceof Date ? bound.getTime() : bound;
  const read = bound instanceof Date
    ? (v: unknown) => (v instanceof Date ? v.getTime() : undefined)
    : (v: unknown) => (typeof v === 'number' ? v : undefined);
  switch (op) {
    case '$gt': return (v) => { const x = read(v); return x !== undefined && x > b; };
    case '$gte': return (v) => { const x = read(v); return x !== undefined && x >= b; };
    case '$lt': return (v) => { const x = read(v); return x !== undefined && x < b; };
    default: return (v) => { const x = read(v); return x !== undefined && x <= b; };
  }
}

/**
 * `$in`: strings through a set (a list of thousands of visitor ids would otherwise be walked for
 * every document), other values one by one; a string equals no other scalar.
 */
function inTest(list: Scalar[]): (v: unknown) => boolean {
  const strings = new Set(list.filter((a): a is string => typeof a === 'string'));
  const others = list.filter((a) => typeof a !== 'string');
  return (v) => (typeof v === 'string' && strings.has(v)) || others.some((a) => equals(v, a));
}

/** The test of one field's condition, or undefined when the condition is not a simple one. */
function fieldTest(cond: unknown): Test | undefined {
  if (isScalar(cond)) {
    const wanted = cond;
    return (v) => (isPlain(v) ? equals(v, wanted) : undefined);
  }
  if (!cond || typeof cond !== 'object' || Array.isArray(cond)) return undefined;
  const tests: ((v: unknown) => boolean)[] = [];
  for (const [op, arg] of Object.entries(cond as Document)) {
    if (op === '$eq' && isScalar(arg)) tests.push((v) => equals(v, arg));
    else if (op === '$ne' && isScalar(arg)) tests.push((v) => !equals(v, arg));
    else if (op === '$in' && Array.isArray(arg) && arg.every(isScalar)) tests.push(inTest(arg));
    else if (RANGE_OPS.has(op) && ((typeof arg === 'number' && Number.isFinite(arg)) || arg instanceof Date)) tests.push(rangeTest(op, arg));
    else return undefined;
  }
  if (tests.length === 0) return undefined;
  return (v) => (isPlain(v) ? tests.every((t) => t(v)) : undefined);
}

/**
 * A predicate equivalent to `compileFilter(filter).test`, or undefined when the filter is not
 * made only of simple top-level conditions (then callers use mingo as before).
 */
export function compileFastFilter(filter: Document): ((doc: Document) => boolean) | undefined {
  const fields: [string, Test][] = [];
  const branches: { any: boolean; preds: ((doc: Document) => boolean)[] }[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') {
      if (!Array.isArray(cond) || cond.length === 0) return undefined;
      const preds = cond.map((c) => (c && typeof c === 'object' && !Array.isArray(c) ? compileFastFilter(c as Document) : undefined));
      if (preds.some((p) => !p)) return undefined;
      branches.push({ any: field === '$or', preds: preds as ((doc: Document) => boolean)[] });
      continue;
    }
    if (field.startsWith('$') || field.includes('.')) return undefined;
    const test = fieldTest(cond);
    if (!test) return undefined;
    fields.push([field, test]);
  }
  let full: Query | undefined;
  return (doc) => {
    for (const [field, test] of fields) {
      const verdict = test(doc[field]);
      if (verdict === undefined) return (full ??= compileFilter(filter)).test(doc);
      if (!verdict) return false;
    }
    for (const b of branches) if (b.any ? !b.preds.some((p) => p(doc)) : !b.preds.every((p) => p(doc))) return false;
    return true;
  };
}

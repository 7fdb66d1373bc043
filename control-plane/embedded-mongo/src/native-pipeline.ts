/**
 * A native runner for the aggregation shapes reporting queries use (`$match`, `$group` with
 * `$sum`/`$avg`, `$sort`, `$skip`, `$limit`, `$count`, `$facet`, `$unwind` of a field; expressions: field paths,
 * literals, `$cond`, `$eq`, `$and`, `$or`, `$ifNull`, `$dateTrunc`). mingo evaluates every
 * expression generically and `$facet` deep-copies its whole input once per facet, which made a
 * 30-day overview take seconds; this runs the same pipeline in plain loops without copying (it
 * never modifies its input and every `$group`/`$count` makes new documents).
 *
 * It answers exactly as the mingo path does or not at all: a pipeline with anything else is
 * refused when compiled, and a document it cannot judge with certainty (a missing group key
 * field, an array or sub-document where a plain value is expected, `null` compared with a
 * missing field) makes the whole run fall back to mingo ({@link runNative} returns undefined).
 */
import type { Document } from 'bson';
import { keyOf } from './bson-values.ts';
import { truncateDate } from './date-operators.ts';
import { compileFastFilter } from './fast-filter.ts';

/** Thrown while compiling or running: the mingo path takes over. */
class Fallback extends Error {}
const fallback = (): never => { throw new Fallback(); };

const MISSING = undefined;
type Expr = (doc: Document) => unknown;
type Stage = (docs: Document[]) => Document[];

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const TIME_UNITS = new Set(['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

/** A plain value the native operators handle (anything else falls back). */
const plain = (v: unknown): boolean =>
  v === MISSING || v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' || v instanceof Date;

/** A plain value, or a document (as made by an earlier `$group`) of such values. */
const groupable = (v: unknown): boolean =>
  plain(v) || (!!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every((x) => x !== MISSING && groupable(x)));

/** Aggregation truthiness: false, null, missing and 0 are false. */
const truthy = (v: unknown): boolean => v !== false && v !== null && v !== MISSING && v !== 0;

function fieldPath(path: string): Expr {
  const parts = path.split('.');
  if (parts.some((p) => p === '' || p.startsWith('$'))) fallback();
  // Top-level fields (most reads): pipeline documents are always documents.
  if (parts.length === 1) { const [p] = parts; return (doc) => doc[p]; }
  return (doc) => {
    let v: unknown = doc;
    for (const p of parts) {
      if (v === null || v === MISSING) return MISSING;
      if (typeof v !== 'object' || Array.isArray(v) || v instanceof Date) fallback();
      v = (v as Document)[p];
    }
    return v;
  };
}

function argList(arg: unknown, n?: number): Expr[] {
  if (!Array.isArray(arg) || (n !== undefined && arg.length !== n)) return fallback();
  return arg.map(compileExpr);
}

/** `$eq` for plain values; `null` against a missing field is left to mingo. */
function equalValues(a: unknown, b: unknown): boolean {
  if (!plain(a) || !plain(b)) fallback();
  if ((a === MISSING || b === MISSING) && (a === null || b === null)) fallback();
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/**
 * `$dateTrunc` with literal unit, zone and start of week. Instants of one UTC hour (or else one
 * UTC minute) share a bucket unless a boundary falls inside it (checked at both ends), so the
 * zone rules are consulted once per hour rather than once per document.
 */
function dateTrunc(arg: unknown): Expr {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return fallback();
  const { date, unit, timezone, startOfWeek, binSize, ...rest } = arg as Document;
  if (Object.keys(rest).length > 0 || typeof unit !== 'string' || !TIME_UNITS.has(unit) || binSize !== undefined) return fallback();
  if (timezone !== undefined && typeof timezone !== 'string') return fallback();
  // As in date-operators.ts, `startOfWeek` is read (and checked) for weeks only.
  if (unit === 'week' && startOfWeek !== undefined && typeof startOfWeek !== 'string') return fallback();
  const sow = unit !== 'week' || startOfWeek === undefined ? 0 : WEEKDAYS.findIndex((d) => d === startOfWeek.toLowerCase() || d.slice(0, 3) === startOfWeek.toLowerCase());
  if (sow < 0 || unit === 'millisecond' || unit === 'second') return fallback();
  const read = compileExpr(date);
  const trunc = (ms: number) => truncateDate(ms, unit, 1, timezone, sow);
  /** The bucket of every instant of [from, from + span), or null when a boundary falls inside. */
  const uniform = (cache: Map<number, number | null>, span: number, ms: number) => {
    const slot = Math.floor(ms / span);
    let start = cache.get(slot);
    if (start === undefined) {
      const lo = trunc(slot * span);
      start = lo === trunc(slot * span + span - 1) ? lo : null;
      cache.set(slot, start);
    }
    return start;
  };
  const byHour = new Map<number, number | null>();
  const byMinute = new Map<number, number | null>();
  return (doc) => {
    const d = read(doc);
    if (d === null || d === MISSING) return null;
    if (!(d instanceof Date)) return fallback();
    const ms = d.getTime();
    // Truncation never goes backwards in time, so equal ends mean one bucket for the whole span.
    const start = uniform(byHour, 3_600_000, ms) ?? uniform(byMinute, 60_000, ms) ?? trunc(ms);
    return new Date(start);
  };
}

function compileExpr(e: unknown): Expr {
  if (typeof e === 'string') return e.startsWith('$') ? (e.startsWith('$$') ? fallback() : fieldPath(e.slice(1))) : () => e;
  if (e === null || typeof e === 'number' || typeof e === 'boolean') return () => e;
  if (!e || typeof e !== 'object' || Array.isArray(e) || e instanceof Date) return fallback();
  const keys = Object.keys(e);
  if (keys.length > 0 && keys.every((k) => !k.startsWith('$') && !k.includes('.'))) return documentExpr(e as Document);
  if (keys.length !== 1 || !keys[0].startsWith('$')) return fallback();
  const arg = (e as Document)[keys[0]];
  switch (keys[0]) {
    case '$eq': { const [a, b] = argList(arg, 2); return (doc) => equalValues(a(doc), b(doc)); }
    case '$and': { const xs = argList(arg); return (doc) => xs.every((x) => truthy(x(doc))); }
    case '$or': { const xs = argList(arg); return (doc) => xs.some((x) => truthy(x(doc))); }
    case '$cond': {
      const [c, a, b] = Array.isArray(arg) ? argList(arg, 3) : argList([arg?.if, arg?.then, arg?.else], 3);
      return (doc) => (truthy(c(doc)) ? a(doc) : b(doc));
    }
    case '$ifNull': {
      const xs = argList(arg);
      if (xs.length < 2) fallback();
      return (doc) => {
        for (let i = 0; i < xs.length - 1; i++) {
          const v = xs[i](doc);
          if (v !== null && v !== MISSING) return v;
        }
        return xs[xs.length - 1](doc);
      };
    }
    case '$dateTrunc': return dateTrunc(arg);
    default: return fallback();
  }
}

/** A document of expressions, such as a compound group `_id`; every field must have a plain value or be such a document. */
function documentExpr(spec: Document): Expr {
  const fields = Object.entries(spec).map(([k, v]) => [k, compileExpr(v), !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((x) => !x.startsWith('$'))] as const);
  return (doc) => {
    const out: Document = {};
    for (const [k, f, nested] of fields) {
      const v = f(doc);
      // A missing field is left out of the document by mongod; leave that case to mingo.
      if (v === MISSING || (!nested && !groupable(v))) fallback();
      out[k] = v;
    }
    return out;
  };
}

/** The `_id` of a group: a plain value, or a document built by {@link documentExpr}. */
function groupKey(spec: unknown): Expr {
  const one = compileExpr(spec);
  if (spec && typeof spec === 'object' && !Array.isArray(spec) && Object.keys(spec).every((k) => !k.startsWith('$'))) return one;
  return (doc) => { const v = one(doc); if (v === MISSING || !groupable(v)) fallback(); return v; };
}

interface Acc { init(): { s: number; n: number }; add(st: { s: number; n: number }, doc: Document): void; out(st: { s: number; n: number }): unknown }

function accumulator(spec: unknown): Acc {
  if (!spec || typeof spec !== 'object' || Object.keys(spec).length !== 1) return fallback();
  const [[op, arg]] = Object.entries(spec as Document);
  if (op !== '$sum' && op !== '$avg') return fallback();
  const expr = compileExpr(arg);
  return {
    init: () => ({ s: 0, n: 0 }),
    add(st, doc) {
      const v = expr(doc);
      if (typeof v === 'number') { st.s += v; st.n++; } else if (!plain(v)) fallback();
    },
    out: (st) => (op === '$sum' ? st.s : st.n === 0 ? null : st.s / st.n),
  };
}

function group(spec: Document): Stage {
  const { _id, ...rest } = spec;
  if (!('_id' in spec)) fallback();
  const key = groupKey(_id);
  // A compound `_id` ({ k: '$path', v: '$visitor' }) always has the same fields in the same
  // order, so its values' keys joined identify it (keyOf output never holds U+0000); keying the
  // whole document repeated every field name for each input document.
  const compound = !!_id && typeof _id === 'object' && !Array.isArray(_id) && Object.keys(_id).every((k) => !k.startsWith('$'));
  const keyOfId = compound ? (id: unknown) => Object.values(id as Document).map(keyOf).join('\u0000') : keyOf;
  const accs = Object.entries(rest).map(([name, s]) => [name, accumulator(s)] as const);
  return (docs) => {
    const groups = new Map<string, { id: unknown; states: { s: number; n: number }[] }>();
    for (const doc of docs) {
      const id = key(doc);
      const k = keyOfId(id);
      let g = groups.get(k);
      if (!g) { g = { id, states: accs.map(([, a]) => a.init()) }; groups.set(k, g); }
      for (let i = 0; i < accs.length; i++) accs[i][1].add(g.states[i], doc);
    }
    return [...groups.values()].map((g) => {
      const out: Document = { _id: g.id };
      accs.forEach(([name, a], i) => { out[name] = a.out(g.states[i]); });
      return out;
    });
  };
}

/** The type of a plain sort value (values of different types are not compared here). */
const TYPE_RANK = (v: unknown): number =>
  v === null || v === MISSING ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : typeof v === 'boolean' ? 8 : v instanceof Date ? 9 : fallback();

function compare(a: unknown, b: unknown): number {
  const ra = TYPE_RANK(a);
  const rb = TYPE_RANK(b);
  // Mixed types sort by mingo's own rules: leave those to it.
  if (ra !== rb) fallback();
  const x = a instanceof Date ? a.getTime() : (a as number | string | boolean | null | undefined);
  const y = b instanceof Date ? b.getTime() : (b as number | string | boolean | null | undefined);
  return x === y || ra === 1 ? 0 : (x as number) < (y as number) ? -1 : 1;
}

function sort(spec: Document): Stage {
  const keys = Object.entries(spec).map(([path, dir]) => {
    if (dir !== 1 && dir !== -1) fallback();
    return [fieldPath(path), dir as number] as const;
  });
  return (docs) => [...docs].sort((a, b) => {
    for (const [read, dir] of keys) {
      const c = compare(read(a), read(b));
      if (c !== 0) return c * dir;
    }
    return 0;
  });
}

/**
 * `$unwind` of a top-level field in its short form (`'$field'`): one document per array element;
 * a missing, null or empty array yields none and any other value passes unchanged, as in mongod.
 * Stored documents are never modified: each output is a shallow copy, or, with `views`, an
 * object holding only the element whose prototype is the input document. Views are used only
 * when a later stage of the same pipeline makes new documents (`$group`, `$count`, `$facet`),
 * so they are never returned; every stage here reads fields with `doc[name]`, which sees the
 * input's fields through the prototype. Why: a visitor-hour has 17 fields, and copying them all
 * for each page of each visitor (and collecting that garbage) was most of a pages breakdown's
 * CPU over the part days of a window.
 */
function unwind(arg: unknown, views: boolean): Stage {
  if (typeof arg !== 'string' || !/^\$[^$.]+$/.test(arg)) return fallback();
  const field = arg.slice(1);
  return (docs) => {
    const out: Document[] = [];
    for (const doc of docs) {
      const v = doc[field];
      if (v === MISSING || v === null) continue;
      if (!Array.isArray(v)) { out.push(doc); continue; }
      for (const el of v) {
        if (!views) { out.push({ ...doc, [field]: el }); continue; }
        const view = Object.create(doc) as Document;
        view[field] = el;
        out.push(view);
      }
    }
    return out;
  };
}

const count = (name: unknown): Stage => (typeof name === 'string' && name && !name.startsWith('$') && !name.includes('.') ? (docs) => [{ [name]: docs.length }] : fallback());

function nonNegative(n: unknown): number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : fallback();
}

/** Compiles a pipeline; it must make new documents ($group or $count) so stored ones are never returned. */
function compilePipeline(stages: Document[]): Stage[] {
  let makesNew = false;
  const out = stages.map((stage, i): Stage => {
    const names = Object.keys(stage);
    if (names.length !== 1) return fallback();
    const arg = stage[names[0]];
    switch (names[0]) {
      case '$match': {
        const test = compileFastFilter(arg as Document) ?? fallback();
        return (docs) => docs.filter(test);
      }
      case '$group': makesNew = true; return group(arg as Document);
      case '$count': makesNew = true; return count(arg);
      case '$unwind': return unwind(arg, stages.slice(i + 1).some((later) => '$group' in later || '$count' in later || '$facet' in later));
      case '$sort': return sort(arg as Document);
      case '$limit': { const n = nonNegative(arg); if (n === 0) fallback(); return (docs) => docs.slice(0, n); }
      case '$skip': { const n = nonNegative(arg); return (docs) => docs.slice(n); }
      case '$facet': {
        if (!arg || typeof arg !== 'object') return fallback();
        const facets = Object.entries(arg as Document).map(([name, p]) => [name, compilePipeline(p as Document[])] as const);
        if (facets.length === 0) fallback();
        makesNew = true;
        return (docs) => [Object.fromEntries(facets.map(([name, p]) => [name, run(p, docs)]))];
      }
      default: return fallback();
    }
  });
  if (!makesNew) fallback();
  return out;
}

function run(stages: Stage[], docs: Document[]): Document[] {
  let out = docs;
  for (const s of stages) out = s(out);
  return out;
}

/** The pipeline's result computed natively, or undefined when mingo must compute it. */
export function runNative(docs: Document[], pipeline: Document[]): Document[] | undefined {
  try {
    return run(compilePipeline(pipeline), docs);
  } catch (err) {
    if (err instanceof Fallback) return undefined;
    throw err;
  }
}

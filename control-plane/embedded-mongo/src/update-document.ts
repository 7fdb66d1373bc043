import { ObjectId, type Document } from 'bson';
import { cloneDoc, isOperatorDoc, keyOf } from './bson-values.ts';
import { MongoCommandError, toCommandError } from './errors.ts';
import { fastModify } from './fast-update.ts';
import { applyModifier, applyPipelineUpdate } from './mingo-context.ts';

/** An update statement's `u`: operators, a replacement document, or a pipeline. */
export type UpdateSpec = Document | Document[];

/** Puts `_id` first, as mongod stores it. */
export function idFirst(doc: Document): Document {
  // The first key, without listing every key of every inserted document.
  for (const k in doc) {
    if (k === '_id') return doc;
    break;
  }
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

function dropEmptyOperators(u: Document): Document {
  const out: Document = {};
  for (const [op, fields] of Object.entries(u)) {
    if (op === '$setOnInsert') continue;
    if (fields && typeof fields === 'object' && Object.keys(fields).length === 0) continue;
    out[op] = fields;
  }
  return out;
}

/**
 * Applies an update to a copy of `doc`. Returns the new version, or undefined when nothing
 * changed (so nModified is exact and no journal record is written).
 */
export function updatedVersion(doc: Document, u: UpdateSpec, arrayFilters: Document[] | undefined, q: Document): Document | undefined {
  try {
    let next: Document;
    if (Array.isArray(u)) {
      next = applyPipelineUpdate(cloneDoc(doc), u);
    } else if (isOperatorDoc(u)) {
      const modifier = dropEmptyOperators(u);
      if (Object.keys(modifier).length === 0) return undefined;
      const fast = arrayFilters ? undefined : fastModify(doc, modifier);
      // A counter update that changed something: no need to compare whole documents.
      if (fast) return fast.changed ? idFirst(fast.doc) : undefined;
      next = cloneDoc(doc);
      const changed = applyModifier(next, modifier, arrayFilters, q);
      if (changed.length === 0) return undefined;
    } else {
      if (u._id !== undefined && keyOf(u._id) !== keyOf(doc._id)) {
        throw new MongoCommandError(66, 'ImmutableField', "After applying the update, the (immutable) field '_id' was found to have been altered to _id: " + String(u._id));
      }
      next = { _id: doc._id, ...cloneDoc(u) };
    }
    if (keyOf(next._id) !== keyOf(doc._id)) {
      throw new MongoCommandError(66, 'ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    next = idFirst(next);
    return keyOf(next) === keyOf(doc) ? undefined : next;
  } catch (err) {
    throw toCommandError(err);
  }
}

function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = doc;
  for (const p of parts.slice(0, -1)) {
    if (!at[p] || typeof at[p] !== 'object') at[p] = {};
    at = at[p] as Document;
  }
  at[parts[parts.length - 1]] = cloneDoc(value);
}

/** Equality fields of a filter, which seed an upserted document (`{a: 1}`, `{a: {$eq: 1}}`, `$and`). */
function equalityFields(q: Document, into: Document): void {
  for (const [k, v] of Object.entries(q)) {
    if (k === '$and' && Array.isArray(v)) for (const c of v) equalityFields(c as Document, into);
    if (k.startsWith('$')) continue;
    if (isOperatorDoc(v)) {
      if ((v as Document).$eq !== undefined) setPath(into, k, (v as Document).$eq);
    } else {
      setPath(into, k, v);
    }
  }
}

/** The document an upsert inserts when nothing matched `q`. */
export function upsertedDocument(q: Document, u: UpdateSpec, arrayFilters: Document[] | undefined): Document {
  try {
    const seed: Document = {};
    equalityFields(q, seed);
    let doc: Document;
    if (Array.isArray(u)) {
      doc = applyPipelineUpdate(seed, u);
    } else if (isOperatorDoc(u)) {
      // $setOnInsert seeds the new document directly: it may set `_id`, which $set may not.
      doc = { ...seed, ...cloneDoc((u.$setOnInsert as Document | undefined) ?? {}) };
      const modifier = dropEmptyOperators(u);
      const inserted = new Set(Object.keys(doc));
      // Paths also set on insert are a conflict mongod reports: leave those to the general path.
      const fast = arrayFilters || Object.values(modifier).some((f) => f && typeof f === 'object' && Object.keys(f).some((p) => inserted.has(p.split('.')[0])))
        ? undefined : fastModify(doc, modifier);
      if (fast) doc = fast.doc;
      else if (Object.keys(modifier).length > 0) applyModifier(doc, modifier, arrayFilters, {});
    } else {
      doc = { ...(seed._id !== undefined ? { _id: seed._id } : {}), ...cloneDoc(u) };
    }
    if (doc._id === undefined) doc._id = new ObjectId();
    return idFirst(doc);
  } catch (err) {
    throw toCommandError(err);
  }
}

import { ObjectId, UUID, type Document } from 'bson';
import { keyOf } from './bson-values.ts';
import { MongoCommandError } from './errors.ts';
import { defaultIndexName, duplicateKeyError, isTextIndex, UniqueIndex, type IndexSpec } from './index-keys.ts';
import { assertDocumentSize } from './document-size.ts';
import { compileFastFilter } from './fast-filter.ts';
import { FieldPartition } from './field-partition.ts';
import { compileFilter } from './mingo-context.ts';
import { shareValues } from './shared-values.ts';

/** A change to persist: the journal writes these and replays them on start. */
export type WriteRecord =
  | { op: 'put'; db: string; c: string; doc: Document }
  | { op: 'del'; db: string; c: string; id: unknown }
  | { op: 'createCollection'; db: string; c: string; options: Document }
  | { op: 'dropCollection'; db: string; c: string }
  | { op: 'createIndex'; db: string; c: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; c: string; name: string }
  | { op: 'dropDatabase'; db: string };

/** The `_id` of a filter that is exactly `{ _id: <scalar or ObjectId> }`, else undefined. */
function plainIdLookup(filter: Document | undefined): unknown {
  const id = filter && Object.keys(filter).length === 1 ? filter._id : undefined;
  return id !== undefined && (typeof id !== 'object' || id === null || id instanceof ObjectId) ? id : undefined;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * One collection held in memory: documents in insertion order keyed by `_id`, its indexes, and
 * unique-key enforcement. Every mutation is synchronous and reports a {@link WriteRecord}, so a
 * command runs start to finish without interleaving (which makes conditional updates atomic).
 */
export class Collection {
  readonly db: string;
  readonly name: string;
  readonly uuid = new UUID();
  readonly options: Document;
  readonly indexes: IndexSpec[] = [ID_INDEX];
  /** Canonical `_id` → document. */
  readonly docs = new Map<string, Document>();
  private uniques: UniqueIndex[] = [];
  /** Equality lookups on the leading field of each index (see field-partition.ts). */
  private partitions: FieldPartition[] = [];
  /** Canonical `_id` → insertion number, to give partition lookups the natural order. */
  private readonly seq = new Map<string, number>();
  private nextSeq = 0;
  private readonly record: (r: WriteRecord) => void;

  constructor(db: string, name: string, options: Document, record: (r: WriteRecord) => void) {
    this.db = db;
    this.name = name;
    this.options = options;
    this.record = record;
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /**
   * The documents a filter can match, in natural order: the single match of a plain `_id`
   * equality, the documents of the filter's value on an index's leading field, or all.
   */
  candidates(filter: Document | undefined): Document[] {
    const id = plainIdLookup(filter);
    if (id !== undefined) {
      const doc = this.docs.get(keyOf(id));
      return doc ? [doc] : [];
    }
    let smallest: { p: FieldPartition; n: number } | undefined;
    if (filter) {
      for (const p of this.partitions) {
        if (!Object.hasOwn(filter, p.field)) continue;
        const n = p.count(filter[p.field]);
        if (n !== undefined && (!smallest || n < smallest.n)) smallest = { p, n };
      }
    }
    const best = smallest?.p.lookup(filter![smallest.p.field]);
    if (!best) return [...this.docs.values()];
    const ids = best.ordered ? best.ids : best.ids.sort((a, b) => this.seq.get(a)! - this.seq.get(b)!);
    return ids.map((i) => this.docs.get(i)!);
  }

  /** Matching documents in natural order (the stored objects: callers must not mutate them). */
  find(filter: Document | undefined): Document[] {
    const docs = this.candidates(filter);
    if (!filter || Object.keys(filter).length === 0) return docs;
    // candidates() already resolved a plain `_id` equality exactly.
    if (plainIdLookup(filter) !== undefined) return docs;
    const test = compileFastFilter(filter) ?? ((q) => (d: Document) => q.test(d))(compileFilter(filter));
    return docs.filter(test);
  }

  /**
   * Inserts a document that already has an `_id`; throws E11000 on any unique violation. The
   * document becomes the store's: its repeated values are swapped for shared copies. A document
   * over 16 MiB is refused as mongod refuses it (10334); `checked: false` only for replaying what
   * was stored before.
   */
  insert(doc: Document, checked = true): void {
    if (checked) assertDocumentSize(doc, 'insert');
    const id = keyOf(doc._id);
    if (this.docs.has(id)) throw duplicateKeyError(this.ns, ID_INDEX, { key: id, keyValue: { _id: doc._id } });
    this.checkUnique(doc, id);
    shareValues(doc);
    for (const u of this.uniques) u.add(doc, id);
    for (const p of this.partitions) p.add(doc, id);
    this.seq.set(id, this.nextSeq++);
    this.docs.set(id, doc);
    this.record({ op: 'put', db: this.db, c: this.name, doc });
  }

  /** Replaces a stored document with its new version (same `_id`); refuses one over 16 MiB as `insert` does. */
  replace(old: Document, next: Document, checked = true): void {
    if (checked) assertDocumentSize(next, 'update');
    const id = keyOf(old._id);
    if (keyOf(next._id) !== id) {
      throw new MongoCommandError(66, 'ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    this.checkUnique(next, id);
    shareValues(next);
    for (const u of this.uniques) u.remove(old, id);
    for (const u of this.uniques) u.add(next, id);
    for (const p of this.partitions) p.replace(old, next, id);
    this.docs.set(id, next);
    this.record({ op: 'put', db: this.db, c: this.name, doc: next });
  }

  remove(doc: Document): void {
    const id = keyOf(doc._id);
    for (const u of this.uniques) u.remove(doc, id);
    for (const p of this.partitions) p.remove(doc, id);
    this.seq.delete(id);
    this.docs.delete(id);
    this.record({ op: 'del', db: this.db, c: this.name, id: doc._id });
  }

  /**
   * Adds an index. Returns false when an identical index exists; a different index under the same
   * name, or a unique index the current documents violate, is an error (as in mongod).
   */
  createIndex(requested: Document): boolean {
    const spec = normaliseIndex(requested);
    const existing = this.indexes.find((i) => i.name === spec.name);
    if (existing) {
      if (JSON.stringify(existing) === JSON.stringify(spec)) return false;
      throw new MongoCommandError(86, 'IndexKeySpecsConflict', `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`);
    }
    if (isTextIndex(spec) && this.indexes.some(isTextIndex)) {
      throw new MongoCommandError(85, 'IndexOptionsConflict', `An equivalent index already exists with a different name and options. Requested index: ${JSON.stringify(spec)}`);
    }
    if (spec.unique) {
      const index = new UniqueIndex(spec);
      for (const [id, doc] of this.docs) {
        const clash = index.conflict(doc, id);
        if (clash) throw duplicateKeyError(this.ns, spec, clash);
        index.add(doc, id);
      }
      this.uniques.push(index);
    }
    this.indexes.push(spec);
    this.partitionFor(spec);
    this.record({ op: 'createIndex', db: this.db, c: this.name, spec });
    return true;
  }

  /** Drops an index by name; the `_id_` index cannot be dropped. */
  dropIndex(name: string): void {
    if (name === '_id_') throw new MongoCommandError(72, 'InvalidOptions', 'cannot drop _id index');
    const at = this.indexes.findIndex((i) => i.name === name);
    if (at < 0) throw new MongoCommandError(27, 'IndexNotFound', `index not found with name [${name}]`);
    this.indexes.splice(at, 1);
    this.uniques = this.uniques.filter((u) => u.spec.name !== name);
    const leads = new Set(this.indexes.map(leadingField));
    this.partitions = this.partitions.filter((p) => leads.has(p.field));
    this.record({ op: 'dropIndex', db: this.db, c: this.name, name });
  }

  /** Starts an equality lookup on the index's leading field, unless one exists or it cannot have one. */
  private partitionFor(spec: IndexSpec): void {
    const field = leadingField(spec);
    if (!field || this.partitions.some((p) => p.field === field)) return;
    const partition = new FieldPartition(field);
    for (const [id, doc] of this.docs) partition.add(doc, id);
    this.partitions.push(partition);
  }

  private checkUnique(doc: Document, id: string): void {
    for (const u of this.uniques) {
      const clash = u.conflict(doc, id);
      if (clash) throw duplicateKeyError(this.ns, u.spec, clash);
    }
  }
}

/**
 * The top-level field an index leads with, if a partition can serve it (not `_id`, text, a dotted
 * path, or a TTL index: its field holds instants, which reads compare by range and never by
 * equality, and a partition would keep one set per distinct instant: a million for a million
 * analytics events, for nothing but garbage-collector work).
 */
function leadingField(spec: IndexSpec): string | undefined {
  if (isTextIndex(spec) || spec.partialFilterExpression || spec.sparse || typeof spec.expireAfterSeconds === 'number') return undefined;
  const field = Object.keys(spec.key)[0];
  return field && field !== '_id' && !field.includes('.') ? field : undefined;
}

/** Turns a createIndexes entry into the form mongod stores and lists (text keys become `_fts`). */
export function normaliseIndex(requested: Document): IndexSpec {
  const key = requested.key as Document;
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw new MongoCommandError(67, 'CannotCreateIndex', "Error in specification { } :: caused by :: The 'key' field must be a non-empty object");
  }
  // Already in stored form (replayed from the journal or a snapshot).
  if (key._fts === 'text') return { ...requested } as IndexSpec;
  const name = typeof requested.name === 'string' ? requested.name : defaultIndexName(key);
  const spec: IndexSpec = { v: 2, key, name };
  for (const option of ['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'collation', 'hidden'] as const) {
    if (requested[option] !== undefined && requested[option] !== false) spec[option] = requested[option];
  }
  if (Object.values(key).includes('text')) {
    const weights: Document = {};
    const stored: Document = {};
    for (const [field, dir] of Object.entries(key)) {
      if (dir === 'text') weights[field] = (requested.weights as Document | undefined)?.[field] ?? 1;
      else stored[field] = dir;
    }
    for (const [field, w] of Object.entries((requested.weights as Document | undefined) ?? {})) weights[field] = w;
    spec.key = { ...stored, _fts: 'text', _ftsx: 1 };
    spec.weights = weights;
    spec.default_language = (requested.default_language as string | undefined) ?? 'english';
    spec.language_override = (requested.language_override as string | undefined) ?? 'language';
    spec.textIndexVersion = 3;
  }
  return spec;
}

import type { Document } from 'bson';
import type { Query } from 'mingo/query';
import { formatValue, keyOf, valuesAtPath } from './bson-values.ts';
import { MongoCommandError } from './errors.ts';
import { compileFilter } from './mingo-context.ts';

/** An index as listIndexes reports it (mongod's field names). */
export interface IndexSpec {
  v: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  weights?: Document;
  default_language?: string;
  language_override?: string;
  textIndexVersion?: number;
  [option: string]: unknown;
}

/** One index key of a document: its canonical string and the `{ field: value }` mongod reports. */
export interface IndexKey {
  key: string;
  keyValue: Document;
}

/** True for a text index (`{ field: "text" }` as requested, `{ _fts: "text" }` as stored). */
export const isTextIndex = (spec: IndexSpec): boolean => Object.values(spec.key).includes('text');

/**
 * Enforces one unique index: computes a document's keys (multikey arrays fan out; a missing field
 * is null unless the index is sparse; partial indexes only hold matching documents) and remembers
 * which document owns each key.
 */
export class UniqueIndex {
  readonly spec: IndexSpec;
  private readonly fields: string[];
  private readonly partial: Query | undefined;
  /** key → canonical _id of the owning document. */
  private readonly owners = new Map<string, string>();

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.partial = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : undefined;
  }

  /** The keys a document contributes to this index (none when sparse/partial exclude it). */
  keysOf(doc: Document): IndexKey[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const perField = this.fields.map((f) => valuesAtPath(doc, f));
    if (this.spec.sparse && perField.every((values) => values.length === 0)) return [];
    let combos: unknown[][] = [[]];
    for (const values of perField) {
      const flat = values.length === 0 ? [null] : values.flatMap((v) => (Array.isArray(v) ? (v.length ? v : [undefined]) : [v]));
      combos = combos.flatMap((c) => flat.map((v) => [...c, v]));
    }
    const seen = new Set<string>();
    const keys: IndexKey[] = [];
    for (const combo of combos) {
      const key = combo.map(keyOf).join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      const keyValue: Document = {};
      this.fields.forEach((f, i) => (keyValue[f] = combo[i] ?? null));
      keys.push({ key, keyValue });
    }
    return keys;
  }

  /** The first key of `doc` already owned by a document other than `ownerId`, if any. */
  conflict(doc: Document, ownerId: string): IndexKey | undefined {
    return this.keysOf(doc).find((k) => {
      const owner = this.owners.get(k.key);
      return owner !== undefined && owner !== ownerId;
    });
  }

  add(doc: Document, ownerId: string): void {
    for (const k of this.keysOf(doc)) this.owners.set(k.key, ownerId);
  }

  remove(doc: Document, ownerId: string): void {
    for (const k of this.keysOf(doc)) if (this.owners.get(k.key) === ownerId) this.owners.delete(k.key);
  }
}

/** mongod's E11000 error for a key of an index in namespace `ns`. */
export function duplicateKeyError(ns: string, spec: IndexSpec, key: IndexKey): MongoCommandError {
  const shown = Object.entries(key.keyValue).map(([f, v]) => `${f}: ${formatValue(v)}`).join(', ');
  return new MongoCommandError(11000, 'DuplicateKey', `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: { ${shown} }`, {
    keyPattern: spec.key,
    keyValue: key.keyValue,
  });
}

/** mongod's default index name: `a_1_b_-1`. */
export function defaultIndexName(key: Document): string {
  return Object.entries(key).map(([f, d]) => `${f}_${String(d)}`).join('_');
}

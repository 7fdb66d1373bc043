/**
 * An equality lookup on the leading field of a collection's indexes: value → the documents
 * holding it, so a read filtered on `{ project_id: "p", ... }` looks only at that project's
 * documents instead of every document of the collection (what mongod's index does for the
 * equality prefix). Ranges and the other fields are still tested document by document.
 */
import type { Document } from 'bson';
import { keyOf } from './bson-values.ts';

/** A value the partition keys on; arrays, sub-documents and other BSON types go to `others`. */
const keyable = (v: unknown): boolean =>
  v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' || v instanceof Date;

/** The key of a stored or wanted value; a missing field and null are one key, as in an index. */
const partKey = (v: unknown): string => keyOf(v ?? null);

export class FieldPartition {
  readonly field: string;
  private readonly byValue = new Map<string, Set<string>>();
  /** Documents whose value is not keyable: they are candidates of every lookup. */
  private readonly others = new Set<string>();
  /** Values whose set may no longer be in natural order (a document moved into it). */
  private readonly moved = new Set<string>();

  constructor(field: string) {
    this.field = field;
  }

  add(doc: Document, id: string, fresh = true): void {
    const v = doc[this.field];
    if (!keyable(v)) { this.others.add(id); return; }
    const k = partKey(v);
    let set = this.byValue.get(k);
    if (!set) { set = new Set(); this.byValue.set(k, set); }
    set.add(id);
    if (!fresh) this.moved.add(k);
  }

  remove(doc: Document, id: string): void {
    const v = doc[this.field];
    if (!keyable(v)) { this.others.delete(id); return; }
    const k = partKey(v);
    const set = this.byValue.get(k);
    set?.delete(id);
    if (set && set.size === 0) { this.byValue.delete(k); this.moved.delete(k); }
  }

  /** Moves a replaced document when its value changed. */
  replace(old: Document, next: Document, id: string): void {
    if (keyOf(old[this.field]) === keyOf(next[this.field])) return;
    this.remove(old, id);
    this.add(next, id, false);
  }

  /**
   * The ids that can match a filter's condition on this field, or undefined when the condition
   * is not an equality (or `$in`) on keyable values. `ordered` is false when the ids may not be
   * in insertion order.
   */
  lookup(cond: unknown): { ids: string[]; ordered: boolean } | undefined {
    const keys = this.keysOf(cond);
    if (!keys) return undefined;
    const ids: string[] = [];
    let ordered = keys.length <= 1 && this.others.size === 0;
    for (const k of keys) {
      const set = this.byValue.get(k);
      if (!set) continue;
      if (this.moved.has(k)) ordered = false;
      for (const id of set) ids.push(id);
    }
    for (const id of this.others) ids.push(id);
    return { ids, ordered };
  }

  /**
   * How many ids {@link lookup} would return, without listing them: a filter on several indexed
   * fields picks the smallest lookup, and listing a project's million events only to compare
   * sizes cost more than the query.
   */
  count(cond: unknown): number | undefined {
    const keys = this.keysOf(cond);
    if (!keys) return undefined;
    let n = this.others.size;
    for (const k of keys) n += this.byValue.get(k)?.size ?? 0;
    return n;
  }

  /** The partition keys a condition wants, or undefined when it is not an equality (or `$in`) on keyable values. */
  private keysOf(cond: unknown): string[] | undefined {
    let wanted: unknown[];
    if (cond && typeof cond === 'object' && !(cond instanceof Date) && !Array.isArray(cond)) {
      const ops = Object.keys(cond as Document);
      if (ops.length !== 1) return undefined;
      if (ops[0] === '$eq') wanted = [(cond as Document).$eq];
      else if (ops[0] === '$in' && Array.isArray((cond as Document).$in)) wanted = (cond as Document).$in as unknown[];
      else return undefined;
    } else {
      wanted = [cond];
    }
    // Only plain values: `null` also matches arrays holding null, which `others` covers.
    if (!wanted.every((w) => w !== undefined && keyable(w))) return undefined;
    return [...new Set(wanted.map(partKey))];
  }
}

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

/** The key of a non-string value; a missing field and null are one key, as in an index. */
const partKey = (v: unknown): string => keyOf(v ?? null);

export class FieldPartition {
  readonly field: string;
  /**
   * String values (ids, names: almost every lookup) keyed by themselves: a million inserts do
   * not build a million `keyOf` strings. Other keyable values are keyed by `keyOf`.
   */
  private readonly byString = new Map<string, Set<string>>();
  private readonly byValue = new Map<string, Set<string>>();
  /** Documents whose value is not keyable: they are candidates of every lookup. */
  private readonly others = new Set<string>();
  /** Sets that may no longer be in natural order (a document moved into them). */
  private readonly moved = new Set<Set<string>>();

  constructor(field: string) {
    this.field = field;
  }

  /** The set of ids holding the keyable value `v`, if any. */
  private setOf(v: unknown): Set<string> | undefined {
    return typeof v === 'string' ? this.byString.get(v) : this.byValue.get(partKey(v));
  }

  add(doc: Document, id: string, fresh = true): void {
    const v = doc[this.field];
    if (!keyable(v)) { this.others.add(id); return; }
    let set = this.setOf(v);
    if (!set) {
      set = new Set();
      if (typeof v === 'string') this.byString.set(v, set);
      else this.byValue.set(partKey(v), set);
    }
    set.add(id);
    if (!fresh) this.moved.add(set);
  }

  remove(doc: Document, id: string): void {
    const v = doc[this.field];
    if (!keyable(v)) { this.others.delete(id); return; }
    const set = this.setOf(v);
    if (!set) return;
    set.delete(id);
    if (set.size > 0) return;
    if (typeof v === 'string') this.byString.delete(v);
    else this.byValue.delete(partKey(v));
    this.moved.delete(set);
  }

  /** Moves a replaced document when its value changed. */
  replace(old: Document, next: Document, id: string): void {
    const a = old[this.field];
    const b = next[this.field];
    if (a === b || (typeof a !== 'string' && typeof b !== 'string' && keyOf(a) === keyOf(b))) return;
    this.remove(old, id);
    this.add(next, id, false);
  }

  /**
   * The ids that can match a filter's condition on this field, or undefined when the condition
   * is not an equality (or `$in`) on keyable values. `ordered` is false when the ids may not be
   * in insertion order.
   */
  lookup(cond: unknown): { ids: string[]; ordered: boolean } | undefined {
    const sets = this.setsOf(cond);
    if (!sets) return undefined;
    const ids: string[] = [];
    let ordered = sets.length <= 1 && this.others.size === 0;
    for (const set of sets) {
      if (this.moved.has(set)) ordered = false;
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
    const sets = this.setsOf(cond);
    if (!sets) return undefined;
    let n = this.others.size;
    for (const set of sets) n += set.size;
    return n;
  }

  /**
   * The sets of the values a condition wants (each once), or undefined when it is not an
   * equality (or `$in`) on keyable values.
   */
  private setsOf(cond: unknown): Set<string>[] | undefined {
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
    const sets = new Set<Set<string>>();
    for (const w of wanted) {
      const set = this.setOf(w);
      if (set) sets.add(set);
    }
    return [...sets];
  }
}

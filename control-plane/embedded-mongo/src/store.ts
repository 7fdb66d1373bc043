import type { Document } from 'bson';
import { Collection, type WriteRecord } from './collection.ts';
import { MongoCommandError } from './errors.ts';

/**
 * All databases and collections of the server. Every change is reported to `record` (the journal
 * when a data directory is configured) as it happens, in order.
 */
export class Store {
  readonly databases = new Map<string, Map<string, Collection>>();
  /** Receives every change; replaced by the journal, silenced while replaying. */
  record: (r: WriteRecord) => void = () => {};

  /** The collection, or undefined when it does not exist. */
  get(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** The collection, created implicitly (as a write to a missing collection does in mongod). */
  ensure(db: string, name: string, options: Document = {}): Collection {
    const existing = this.get(db, name);
    if (existing) return existing;
    validateName(db, name);
    let colls = this.databases.get(db);
    if (!colls) {
      colls = new Map();
      this.databases.set(db, colls);
    }
    const coll = new Collection(db, name, options, (r) => this.record(r));
    colls.set(name, coll);
    this.record({ op: 'createCollection', db, c: name, options });
    return coll;
  }

  /** Drops a collection; returns whether it existed. */
  drop(db: string, name: string): Collection | undefined {
    const coll = this.get(db, name);
    if (!coll) return undefined;
    this.databases.get(db)!.delete(name);
    if (this.databases.get(db)!.size === 0) this.databases.delete(db);
    this.record({ op: 'dropCollection', db, c: name });
    return coll;
  }

  dropDatabase(db: string): void {
    if (!this.databases.delete(db)) return;
    this.record({ op: 'dropDatabase', db });
  }

  /** Applies a journal or snapshot record without recording it again. */
  apply(r: WriteRecord): void {
    switch (r.op) {
      case 'put': {
        const coll = this.ensure(r.db, r.c);
        const doc = r.doc;
        const old = coll.candidates({ _id: doc._id })[0];
        // Replayed as it was stored: a size check applies to new writes only.
        if (old) coll.replace(old, doc, false);
        else coll.insert(doc, false);
        break;
      }
      case 'del': {
        const coll = this.get(r.db, r.c);
        const old = coll?.candidates({ _id: r.id })[0];
        if (coll && old) coll.remove(old);
        break;
      }
      case 'createCollection':
        this.ensure(r.db, r.c, r.options);
        break;
      case 'dropCollection':
        this.drop(r.db, r.c);
        break;
      case 'createIndex':
        this.ensure(r.db, r.c).createIndex(r.spec);
        break;
      case 'dropIndex':
        this.get(r.db, r.c)?.dropIndex(r.name);
        break;
      case 'dropDatabase':
        this.dropDatabase(r.db);
        break;
    }
  }

  /** The records that rebuild the current state from nothing (the content of a snapshot). */
  *records(): Generator<WriteRecord> {
    for (const [db, colls] of this.databases) {
      for (const [c, coll] of colls) {
        yield { op: 'createCollection', db, c, options: coll.options };
        for (const spec of coll.indexes.slice(1)) yield { op: 'createIndex', db, c, spec };
        for (const doc of coll.docs.values()) yield { op: 'put', db, c, doc };
      }
    }
  }
}

function validateName(db: string, name: string): void {
  if (!db || /[/\\. "$]/.test(db)) throw new MongoCommandError(73, 'InvalidNamespace', `Invalid database name: '${db}'`);
  if (!name || name.includes('$') || name.startsWith('.') || name.includes('\0')) {
    throw new MongoCommandError(73, 'InvalidNamespace', `Invalid collection name: ${name}`);
  }
}

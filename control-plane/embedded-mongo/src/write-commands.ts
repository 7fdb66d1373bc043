import { ObjectId, type Document } from 'bson';
import { cloneDoc } from './bson-values.ts';
import type { Collection } from './collection.ts';
import type { CommandHandler } from './command-context.ts';
import { badValue, MongoCommandError, toCommandError } from './errors.ts';
import { project, selectDocs } from './query-engine.ts';
import { idFirst, updatedVersion, upsertedDocument, type UpdateSpec } from './update-document.ts';

function writeError(index: number, err: unknown): Document {
  const e = toCommandError(err);
  return { index, code: e.code, errmsg: e.message, ...e.extra };
}

/** Runs statements in order; with `ordered` (the default) the first error stops the batch. */
function runBatch<T>(items: T[], ordered: boolean, run: (item: T, index: number) => void): Document[] {
  const errors: Document[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      run(items[i], i);
    } catch (err) {
      errors.push(writeError(i, err));
      if (ordered) break;
    }
  }
  return errors;
}

const withErrors = (reply: Document, errors: Document[]): Document => (errors.length ? { ...reply, writeErrors: errors } : reply);

/** `insert`: documents without `_id` get an ObjectId, stored first as mongod does. */
export const insert: CommandHandler = (cmd, { store, db }) => {
  const docs = (cmd.documents ?? []) as Document[];
  const coll = store.ensure(db, String(cmd.insert));
  let n = 0;
  const errors = runBatch(docs, cmd.ordered !== false, (doc) => {
    coll.insert(idFirst(doc._id === undefined ? { _id: new ObjectId(), ...doc } : doc));
    n++;
  });
  return withErrors({ n, ok: 1 }, errors);
};

interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  doc?: Document;
  before?: Document;
}

/** One update statement against a collection: the shared core of `update` and `findAndModify`. */
function updateMatching(coll: Collection, q: Document, u: UpdateSpec, opts: { multi: boolean; upsert: boolean; arrayFilters?: Document[]; sort?: Document }): UpdateOutcome {
  const matches = selectDocs(coll, { filter: q, sort: opts.sort, limit: opts.multi ? 0 : 1 });
  if (matches.length === 0) {
    if (!opts.upsert) return { matched: 0, modified: 0 };
    const doc = upsertedDocument(q, u, opts.arrayFilters);
    coll.insert(doc);
    return { matched: 0, modified: 0, upsertedId: doc._id, doc };
  }
  let modified = 0;
  let last: Document | undefined;
  for (const doc of matches) {
    const next = updatedVersion(doc, u, opts.arrayFilters, q);
    if (next) {
      coll.replace(doc, next);
      modified++;
    }
    last = next ?? doc;
  }
  return { matched: matches.length, modified, doc: last, before: matches[matches.length - 1] };
}

/** `update`: statements `{ q, u, multi, upsert, arrayFilters }`. */
export const update: CommandHandler = (cmd, { store, db }) => {
  const statements = (cmd.updates ?? []) as Document[];
  const coll = store.ensure(db, String(cmd.update));
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = runBatch(statements, cmd.ordered !== false, (s, index) => {
    const u = s.u as UpdateSpec;
    if (s.multi && !Array.isArray(u) && !Object.keys(u).some((k) => k.startsWith('$'))) {
      throw new MongoCommandError(9, 'FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const r = updateMatching(coll, (s.q ?? {}) as Document, u, { multi: !!s.multi, upsert: !!s.upsert, arrayFilters: s.arrayFilters as Document[] | undefined });
    n += r.matched;
    nModified += r.modified;
    if (r.upsertedId !== undefined) {
      n += 1;
      upserted.push({ index, _id: r.upsertedId });
    }
  });
  return withErrors({ n, nModified, ...(upserted.length ? { upserted } : {}), ok: 1 }, errors);
};

/** `delete`: statements `{ q, limit }` where limit 1 deletes the first match and 0 all. */
export const remove: CommandHandler = (cmd, { store, db }) => {
  const statements = (cmd.deletes ?? []) as Document[];
  const coll = store.get(db, String(cmd.delete));
  let n = 0;
  const errors = runBatch(statements, cmd.ordered !== false, (s) => {
    if (!coll) return;
    const matches = selectDocs(coll, { filter: (s.q ?? {}) as Document, sort: s.sort as Document | undefined, limit: s.limit === 1 ? 1 : 0 });
    for (const doc of matches) coll.remove(doc);
    n += matches.length;
  });
  return withErrors({ n, ok: 1 }, errors);
};

/** `findAndModify`: atomically update or remove one document and return it (before or after). */
export const findAndModify: CommandHandler = (cmd, { store, db }) => {
  const q = (cmd.query ?? {}) as Document;
  const sort = cmd.sort as Document | undefined;
  const fields = cmd.fields as Document | undefined;
  const shape = (doc: Document | undefined): Document | null => (doc ? project([doc], fields, false)[0] : null);
  if (cmd.remove) {
    const coll = store.get(db, String(cmd.findAndModify));
    const [doc] = coll ? selectDocs(coll, { filter: q, sort, limit: 1 }) : [];
    if (doc) coll!.remove(doc);
    return { lastErrorObject: { n: doc ? 1 : 0 }, value: shape(doc), ok: 1 };
  }
  if (cmd.update === undefined) throw badValue('Either an update or remove=true must be specified');
  const coll = store.ensure(db, String(cmd.findAndModify));
  const r = updateMatching(coll, q, cmd.update as UpdateSpec, { multi: false, upsert: !!cmd.upsert, arrayFilters: cmd.arrayFilters as Document[] | undefined, sort });
  if (r.upsertedId !== undefined) {
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: r.upsertedId }, value: cmd.new ? shape(cloneDoc(r.doc)) : null, ok: 1 };
  }
  const value = r.matched === 0 ? null : shape(cmd.new ? r.doc : r.before);
  return { lastErrorObject: { n: r.matched, updatedExisting: r.matched > 0 }, value, ok: 1 };
};

import type { Document } from 'bson';
import type { CommandHandler } from './command-context.ts';
import { badValue, MongoCommandError, namespaceNotFound } from './errors.ts';
import { compileFilter } from './mingo-context.ts';

/** Wire version 21 is MongoDB 7.0, which driver 7 accepts. */
const MAX_WIRE_VERSION = 21;
const VERSION = '7.0.0';

/** `hello` / `isMaster`: a writable standalone with sessions, no compression, no streaming monitor. */
export const hello: CommandHandler = (cmd, { connectionId }) => {
  const legacy = cmd.hello === undefined;
  return {
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    helloOk: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
};

export const ping: CommandHandler = () => ({ ok: 1 });

/** Answers that need nothing but ok (sessions and transactions are accepted and ignored). */
export const acknowledge: CommandHandler = () => ({ ok: 1 });

export const buildInfo: CommandHandler = () => ({
  version: VERSION,
  gitVersion: 'embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  maxBsonObjectSize: 16 * 1024 * 1024,
  storageEngines: ['embedded'],
  ok: 1,
});

/** `listCollections` with an optional filter (on name, type, options) and nameOnly. */
export const listCollections: CommandHandler = (cmd, { store, cursors, db }) => {
  const infos = [...(store.databases.get(db)?.values() ?? [])].map((c) =>
    cmd.nameOnly
      ? { name: c.name, type: 'collection' }
      : { name: c.name, type: 'collection', options: c.options, info: { readOnly: false, uuid: c.uuid }, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } },
  );
  const filter = cmd.filter as Document | undefined;
  const selected = filter && Object.keys(filter).length ? infos.filter((i) => compileFilter(filter).test(i)) : infos;
  return cursors.first(`${db}.$cmd.listCollections`, selected, (cmd.cursor as Document | undefined)?.batchSize as number | undefined);
};

/** `create`: idempotent when the collection exists with the same options, as in MongoDB 7. */
export const create: CommandHandler = (cmd, { store, db }) => {
  const name = String(cmd.create);
  const { create: _c, $db: _d, lsid: _l, $clusterTime: _t, writeConcern: _w, txnNumber: _n, $readPreference: _r, ...options } = cmd;
  const existing = store.get(db, name);
  if (existing && JSON.stringify(existing.options) !== JSON.stringify(options)) {
    throw new MongoCommandError(48, 'NamespaceExists', `Collection ${db}.${name} already exists with different options`);
  }
  store.ensure(db, name, options);
  return { ok: 1 };
};

export const drop: CommandHandler = (cmd, { store, db }) => {
  const name = String(cmd.drop);
  const coll = store.drop(db, name);
  return { nIndexesWas: coll?.indexes.length ?? 0, ns: `${db}.${name}`, ok: 1 };
};

export const dropDatabase: CommandHandler = (_cmd, { store, db }) => {
  store.dropDatabase(db);
  return { dropped: db, ok: 1 };
};

export const listDatabases: CommandHandler = (cmd, { store }) => {
  const databases = [...store.databases.entries()].map(([name, colls]) => {
    let docs = 0;
    for (const c of colls.values()) docs += c.docs.size;
    return cmd.nameOnly ? { name } : { name, sizeOnDisk: docs * 100, empty: docs === 0 };
  });
  const filter = cmd.filter as Document | undefined;
  const selected = filter && Object.keys(filter).length ? databases.filter((d) => compileFilter(filter).test(d)) : databases;
  return { databases: selected, totalSize: selected.reduce((s, d) => s + ((d as Document).sizeOnDisk ?? 0), 0), ok: 1 };
};

export const createIndexes: CommandHandler = (cmd, { store, db }) => {
  const indexes = cmd.indexes as Document[] | undefined;
  if (!Array.isArray(indexes) || indexes.length === 0) throw badValue('Must specify at least one index to create');
  const name = String(cmd.createIndexes);
  const createdCollectionAutomatically = !store.get(db, name);
  const coll = store.ensure(db, name);
  const before = coll.indexes.length;
  let created = 0;
  for (const spec of indexes) if (coll.createIndex(spec)) created++;
  return {
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.length,
    createdCollectionAutomatically,
    ...(created === 0 ? { note: 'all indexes already exist' } : {}),
    ok: 1,
  };
};

export const listIndexes: CommandHandler = (cmd, { store, cursors, db }) => {
  const name = String(cmd.listIndexes);
  const coll = store.get(db, name);
  if (!coll) throw namespaceNotFound(`${db}.${name}`);
  return cursors.first(`${db}.${name}`, coll.indexes.map((i) => ({ ...i })), (cmd.cursor as Document | undefined)?.batchSize as number | undefined);
};

/** `dropIndexes` by name, list of names, key pattern, or `"*"` (all but `_id_`). */
export const dropIndexes: CommandHandler = (cmd, { store, db }) => {
  const name = String(cmd.dropIndexes);
  const coll = store.get(db, name);
  if (!coll) throw namespaceNotFound(`${db}.${name}`);
  const was = coll.indexes.length;
  const which = cmd.index;
  let names: string[];
  if (which === '*') names = coll.indexes.slice(1).map((i) => i.name);
  else if (Array.isArray(which)) names = which.map(String);
  else if (typeof which === 'string') names = [which];
  else if (which && typeof which === 'object') {
    const match = coll.indexes.find((i) => JSON.stringify(i.key) === JSON.stringify(which));
    if (!match) throw new MongoCommandError(27, 'IndexNotFound', `can't find index with key: ${JSON.stringify(which)}`);
    names = [match.name];
  } else throw badValue('dropIndexes requires an index name, key pattern or "*"');
  for (const n of names) coll.dropIndex(n);
  return { nIndexesWas: was, ok: 1 };
};

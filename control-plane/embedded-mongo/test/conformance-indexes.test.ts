import mongoose from 'mongoose';
import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

t.test('conformance: indexes and unique keys', async (t) => {
  forEachTarget(t, async (t, { db, uri }) => {
    await t.test('should create, list and drop indexes', async (t) => {
      const c = db.collection('ix');
      const created = await db.command({ createIndexes: 'ix', indexes: [{ key: { a: 1 }, name: 'a_1' }, { key: { b: -1, c: 1 }, name: 'b_-1_c_1', unique: true }] });
      t.same([created.numIndexesBefore, created.numIndexesAfter, created.createdCollectionAutomatically], [1, 3, true]);
      await c.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
      const list = await c.listIndexes().toArray();
      t.same(list.map((i) => ({ key: i.key, name: i.name, unique: i.unique, ttl: i.expireAfterSeconds })), [
        { key: { _id: 1 }, name: '_id_', unique: undefined, ttl: undefined },
        { key: { a: 1 }, name: 'a_1', unique: undefined, ttl: undefined },
        { key: { b: -1, c: 1 }, name: 'b_-1_c_1', unique: true, ttl: undefined },
        { key: { at: 1 }, name: 'at_1', unique: undefined, ttl: 3600 },
      ]);
      t.same(await db.command({ dropIndexes: 'ix', index: 'a_1' }), { nIndexesWas: 4, ok: 1 });
      const missing = await db.command({ dropIndexes: 'ix', index: 'nope_1' }).catch((e) => e);
      t.same([missing.code, missing.codeName], [27, 'IndexNotFound']);
      await db.command({ dropIndexes: 'ix', index: '*' });
      t.same((await c.listIndexes().toArray()).map((i) => i.name), ['_id_']);
      const noColl = await db.command({ listIndexes: 'absent' }).catch((e) => e);
      t.same([noColl.code, noColl.codeName], [26, 'NamespaceNotFound']);
    });

    await t.test('should report E11000 as writeErrors on insert and update', async (t) => {
      const users = db.collection('users');
      await users.createIndex({ name: 1 }, { unique: true });
      await users.insertOne({ _id: 1 as never, name: 'x' });
      const ins = await db.command({ insert: 'users', documents: [{ _id: 2, name: 'y' }, { _id: 3, name: 'x' }, { _id: 4, name: 'z' }] });
      t.same(ins, {
        n: 1,
        writeErrors: [{ index: 1, code: 11000, errmsg: `E11000 duplicate key error collection: ${db.databaseName}.users index: name_1 dup key: { name: "x" }`, keyPattern: { name: 1 }, keyValue: { name: 'x' } }],
        ok: 1,
      });
      const unordered = await db.command({ insert: 'users', documents: [{ _id: 1, name: 'q' }, { _id: 5, name: 'w' }], ordered: false });
      t.same(unordered.n, 1);
      t.same(unordered.writeErrors.map((e: { index: number; keyValue: unknown }) => [e.index, e.keyValue]), [[0, { _id: 1 }]]);
      const upd = await db.command({ update: 'users', updates: [{ q: { _id: 2 }, u: { $set: { name: 'x' } } }] });
      t.same(upd.writeErrors, [{ index: 0, code: 11000, errmsg: `E11000 duplicate key error collection: ${db.databaseName}.users index: name_1 dup key: { name: "x" }`, keyPattern: { name: 1 }, keyValue: { name: 'x' } }]);
      t.same(await users.findOne({ _id: 2 as never }), { _id: 2, name: 'y' });
      const failing = await db.command({ createIndexes: 'users', indexes: [{ key: { n: 1 }, name: 'n_1', unique: true }] }).catch((e) => e);
      t.equal(failing.code, 11000);
    });

    await t.test('should fail findAndModify with a DuplicateKey error', async (t) => {
      const err = await db.command({ findAndModify: 'users', query: { _id: 2 }, update: { $set: { name: 'x' } } }).catch((e) => e);
      t.same(
        { code: err.code, codeName: err.codeName, message: err.message, keyPattern: err.keyPattern, keyValue: err.keyValue },
        { code: 11000, codeName: 'DuplicateKey', message: `E11000 duplicate key error collection: ${db.databaseName}.users index: name_1 dup key: { name: "x" }`, keyPattern: { name: 1 }, keyValue: { name: 'x' } },
      );
      const upsert = await db.collection('users').updateOne({ name: 'x', other: 1 }, { $set: { v: 1 } }, { upsert: true }).catch((e) => e);
      t.equal(upsert.code, 11000);
    });

    await t.test('should enforce compound, sparse and partial unique indexes', async (t) => {
      const c = db.collection('kinds');
      await c.createIndex({ org: 1, slug: 1 }, { unique: true });
      await c.createIndex({ email: 1 }, { unique: true, sparse: true });
      await c.createIndex({ domain: 1 }, { unique: true, partialFilterExpression: { verified: true } });
      await c.insertMany([{ org: 1, slug: 'a' }, { org: 2, slug: 'a' }, { org: 1, slug: 'b' }]);
      const dup = await c.insertOne({ org: 1, slug: 'a' }).catch((e) => e);
      t.same([dup.code, dup.keyValue], [11000, { org: 1, slug: 'a' }]);
      t.equal(await c.countDocuments({ email: { $exists: false } }), 3);
      await c.insertOne({ org: 3, slug: 'c', email: 'e@x' });
      t.equal((await c.insertOne({ org: 4, slug: 'c', email: 'e@x' }).catch((e) => e)).code, 11000);
      await c.insertMany([{ org: 5, slug: 'd', domain: 'd.com' }, { org: 6, slug: 'd', domain: 'd.com' }, { org: 7, slug: 'd', domain: 'd.com', verified: true }]);
      t.equal((await c.insertOne({ org: 8, slug: 'd', domain: 'd.com', verified: true }).catch((e) => e)).code, 11000);
    });

    await t.test('should let concurrent upserts on a partial unique key insert one document and join it', async (t) => {
      const c = db.collection('queue');
      await c.createIndex({ project: 1 }, { name: 'one_fresh', unique: true, partialFilterExpression: { status: 'queued', fencing: 0 } });
      t.same((await c.listIndexes().toArray()).find((i) => i.name === 'one_fresh'), { v: 2, key: { project: 1 }, name: 'one_fresh', unique: true, partialFilterExpression: { status: 'queued', fencing: 0 } });
      await c.insertMany([{ project: 'p', status: 'queued', fencing: 3 }, { project: 'p', status: 'deployed', fencing: 0 }]);
      const upsert = (sha: number) => c.findOneAndUpdate(
        { project: 'p', status: 'queued', fencing: 0 },
        { $set: { sha }, $setOnInsert: { at: 1 } },
        { upsert: true, returnDocument: 'after', includeResultMetadata: true },
      ).catch((e: { code?: number }) => ({ error: e.code }));
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => upsert(i)));
      // mongod may refuse a losing concurrent upsert with E11000 instead of retrying it; never a second document.
      const ok = results.filter((r): r is Exclude<typeof r, { error?: number }> => !('error' in r));
      t.ok(results.every((r) => !('error' in r) || r.error === 11000));
      t.equal(await c.countDocuments({ project: 'p', status: 'queued', fencing: 0 }), 1);
      t.equal(new Set(ok.map((r) => String(r.value!._id))).size, 1, 'every upsert returned the same document');
      t.equal(ok.filter((r) => r.lastErrorObject?.upserted !== undefined).length, 1, 'one of them inserted it');
      const other = await c.updateOne({ project: 'p', status: 'queued', fencing: 0, sha: 'none' }, { $set: { x: 1 } }, { upsert: true }).catch((e) => e);
      t.same([other.code, other.keyValue], [11000, { project: 'p' }], 'an upsert whose new document collides is E11000');
      t.equal(await c.countDocuments({ project: 'p' }), 3, 'documents outside the partial filter share the key');
    });

    await t.test('should raise the usual mongoose MongoServerError with code 11000', async (t) => {
      const conn = await mongoose.createConnection(uri, { dbName: db.databaseName }).asPromise();
      try {
        const Project = conn.model('Project', new mongoose.Schema({ slug: { type: String, unique: true } }));
        await Project.init();
        await Project.create({ slug: 'docs' });
        const err = await Project.create({ slug: 'docs' }).catch((e) => e);
        t.same([err.name, err.code, err.keyValue], ['MongoServerError', 11000, { slug: 'docs' }]);
        t.equal(err.message, `E11000 duplicate key error collection: ${db.databaseName}.projects index: slug_1 dup key: { slug: "docs" }`);
      } finally {
        await conn.close();
      }
    });
  });
});

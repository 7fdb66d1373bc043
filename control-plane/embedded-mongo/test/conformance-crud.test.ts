import { Decimal128, Long, ObjectId, Binary } from 'mongodb';
import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

t.test('conformance: CRUD and cursors through the driver', async (t) => {
  forEachTarget(t, async (t, { db }) => {
    const items = db.collection('items');
    await items.insertMany([
      { _id: 1 as never, name: 'a', n: 3, tags: ['x', 'y'] },
      { _id: 2 as never, name: 'b', n: 1, tags: ['y'] },
      { _id: 3 as never, name: 'c', n: 2, tags: [] },
      { _id: 4 as never, name: 'd', n: 5 },
      { _id: 5 as never, name: 'e', n: 4 },
    ]);

    await t.test('should find with filter, sort, projection, skip and limit', async (t) => {
      const docs = await items.find({ n: { $gte: 2 } }, { projection: { _id: 0, name: 1 } }).sort({ n: -1 }).skip(1).limit(2).toArray();
      t.same(docs, [{ name: 'e' }, { name: 'a' }]);
    });

    await t.test('should page through a cursor with batchSize via getMore and kill it', async (t) => {
      const first = await db.command({ find: 'items', filter: {}, sort: { _id: 1 }, batchSize: 2 });
      t.same(first.cursor.firstBatch.map((d: { _id: number }) => d._id), [1, 2]);
      t.not(String(first.cursor.id), '0');
      const more = await db.command({ getMore: first.cursor.id, collection: 'items', batchSize: 2 });
      t.same(more.cursor.nextBatch.map((d: { _id: number }) => d._id), [3, 4]);
      t.equal(String(more.cursor.id), String(first.cursor.id));
      const killed = await db.command({ killCursors: 'items', cursors: [first.cursor.id] });
      t.same(killed.cursorsKilled.map(String), [String(first.cursor.id)]);
      const gone = await db.command({ getMore: first.cursor.id, collection: 'items' }).catch((e) => e);
      t.equal(gone.code, 43);
      const all = await items.find({}, { batchSize: 2 }).sort({ _id: 1 }).toArray();
      t.same(all.map((d) => d._id), [1, 2, 3, 4, 5]);
    });

    await t.test('should let an upsert set _id with $setOnInsert and ignore it on update', async (t) => {
      const docs = db.collection('upserts');
      const up = (title: string) => docs.updateOne({ key: 'k' }, { $setOnInsert: { _id: 'chosen-id' as never }, $set: { title } }, { upsert: true });
      t.same((await up('first')).upsertedId, 'chosen-id');
      t.same((await up('second')).modifiedCount, 1);
      t.same(await docs.find({}).toArray(), [{ _id: 'chosen-id', key: 'k', title: 'second' }]);
    });

    await t.test('should update with operators, multi, upsert and replacement', async (t) => {
      const r1 = await items.updateMany({ n: { $lt: 3 } }, { $inc: { n: 10 }, $set: { low: true } });
      t.same([r1.matchedCount, r1.modifiedCount], [2, 2]);
      await items.updateOne({ _id: 1 as never }, { $push: { tags: 'z' }, $unset: { name: '' } } as never);
      await items.updateOne({ _id: 1 as never }, { $pull: { tags: 'x' } } as never);
      t.same(await items.findOne({ _id: 1 as never }), { _id: 1, n: 3, tags: ['y', 'z'] });
      const r2 = await items.updateOne({ name: 'zz' }, { $set: { n: 7 }, $setOnInsert: { created: true } }, { upsert: true });
      t.equal(r2.upsertedCount, 1);
      t.same(await items.findOne({ _id: r2.upsertedId! }, { projection: { _id: 0 } }), { name: 'zz', n: 7, created: true });
      const r3 = await items.updateOne({ name: 'zz' }, { $set: { n: 8 }, $setOnInsert: { created: false } }, { upsert: true });
      t.same([r3.matchedCount, r3.modifiedCount, r3.upsertedCount], [1, 1, 0]);
      t.same(await items.findOne({ name: 'zz' }, { projection: { _id: 0 } }), { name: 'zz', n: 8, created: true });
      const r4 = await items.replaceOne({ _id: 4 as never }, { name: 'D', replaced: 1 });
      t.equal(r4.modifiedCount, 1);
      t.same(await items.findOne({ _id: 4 as never }), { _id: 4, name: 'D', replaced: 1 });
      const same = await items.updateOne({ _id: 4 as never }, { $set: { name: 'D' } });
      t.same([same.matchedCount, same.modifiedCount], [1, 0]);
      await items.insertOne({ _id: 9 as never, grades: [{ g: 1 }, { g: 5 }, { g: 7 }] });
      await items.updateOne({ _id: 9 as never }, { $set: { 'grades.$[big].big': true } }, { arrayFilters: [{ 'big.g': { $gte: 5 } }] });
      t.same(await items.findOne({ _id: 9 as never }), { _id: 9, grades: [{ g: 1 }, { g: 5, big: true }, { g: 7, big: true }] });
    });

    await t.test('should delete one or many', async (t) => {
      const one = await items.deleteOne({ low: true });
      t.equal(one.deletedCount, 1);
      const many = await items.deleteMany({ n: { $exists: true } });
      t.equal(many.deletedCount, 4);
      t.same((await items.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id), [4, 9]);
    });

    await t.test('should findAndModify with sort, new, fields, upsert and remove', async (t) => {
      const jobs = db.collection('jobs');
      await jobs.insertMany([{ k: 'a', p: 2, state: 'queued' }, { k: 'b', p: 9, state: 'queued' }, { k: 'c', p: 5, state: 'queued' }]);
      const claimed = await jobs.findOneAndUpdate({ state: 'queued' }, { $set: { state: 'running' } }, { sort: { p: -1 }, returnDocument: 'after', projection: { _id: 0, k: 1, state: 1 } });
      t.same(claimed, { k: 'b', state: 'running' });
      const before = await jobs.findOneAndUpdate({ k: 'a' }, { $inc: { p: 1 } }, { returnDocument: 'before', projection: { _id: 0, p: 1 } });
      t.same(before, { p: 2 });
      const upserted = await jobs.findOneAndUpdate({ k: 'new' }, { $set: { p: 0 } }, { upsert: true, returnDocument: 'after', projection: { _id: 0 } });
      t.same(upserted, { k: 'new', p: 0 });
      const raw = await db.command({ findAndModify: 'jobs', query: { k: 'none' }, update: { $set: { p: 1 } } });
      t.same(raw.lastErrorObject, { n: 0, updatedExisting: false });
      t.equal(raw.value, null);
      const removed = await jobs.findOneAndDelete({ state: 'queued' }, { sort: { p: 1 }, projection: { _id: 0, k: 1 } });
      t.same(removed, { k: 'a' });
      t.equal(await jobs.countDocuments(), 3);
    });

    await t.test('should count and distinct', async (t) => {
      const c = db.collection('cd');
      await c.insertMany([{ t: ['a', 'b'], v: 1 }, { t: ['b', 'c'], v: 2 }, { t: 'd', v: 2 }]);
      t.same(await db.command({ count: 'cd', query: { v: 2 } }), { n: 2, ok: 1 });
      t.same((await c.distinct('t')).sort(), ['a', 'b', 'c', 'd']);
      t.same(await c.distinct('v', { t: 'b' }), [1, 2]);
      t.equal(await c.countDocuments({ v: 2 }, { limit: 1 }), 1);
    });

    await t.test('should round-trip ObjectId, Date, Decimal128, Binary and Long', async (t) => {
      const c = db.collection('types');
      const doc = { _id: new ObjectId(), d: new Date('2024-02-29T12:00:00.123Z'), dec: Decimal128.fromString('12.3400'), bin: new Binary(Buffer.from([1, 2, 3]), 4), long: Long.fromString('9007199254740993'), nested: { a: [1, { b: null }] } };
      await c.insertOne(doc);
      const back = await c.findOne({ _id: doc._id }, { promoteLongs: false });
      t.equal(back!._id.toHexString(), doc._id.toHexString());
      t.equal(back!.d.toISOString(), '2024-02-29T12:00:00.123Z');
      t.equal(back!.dec.toString(), '12.3400');
      t.equal(back!.bin.sub_type, 4);
      t.same([...back!.bin.buffer], [1, 2, 3]);
      t.equal(back!.long.toString(), '9007199254740993');
      t.same(back!.nested, { a: [1, { b: null }] });
    });

    await t.test('should apply 200 concurrent conditional increments atomically', async (t) => {
      const quota = db.collection('quota');
      await quota.insertOne({ _id: 'q' as never, used: 0 });
      const limit = 37;
      const results = await Promise.all(Array.from({ length: 200 }, () => quota.updateOne({ _id: 'q' as never, used: { $lt: limit } }, { $inc: { used: 1 } })));
      t.equal(results.filter((r) => r.modifiedCount === 1).length, limit);
      t.same(await quota.findOne({ _id: 'q' as never }), { _id: 'q', used: limit });
    });

    await t.test('should answer an unknown command with CommandNotFound', async (t) => {
      const err = await db.command({ frobnicate: 1 }).catch((e) => e);
      t.same({ code: err.code, codeName: err.codeName, message: err.message }, { code: 59, codeName: 'CommandNotFound', message: "no such command: 'frobnicate'" });
    });
  });
});

import { Binary, BSON, Decimal128, Long, ObjectId, type Document } from 'mongodb';
import t from 'tap';
import { Collection } from '../src/collection.ts';
import { updatedVersion } from '../src/update-document.ts';
import { forEachTarget } from './helpers/targets.ts';

const HOUR = new Date('2026-03-01T10:00:00Z');

/** Documents of every shape the sharing walks or leaves alone. */
const DOCS: Document[] = [
  { _id: 1, p: 'bench-project', kind: 'page_view', hour: new Date(HOUR), ts: new Date('2026-03-01T10:17:03.250Z'), bot: false, n: 3 },
  { _id: 2, p: 'bench-project', kind: 'page_view', hour: new Date(HOUR), pages: ['/a', '/b', '/a'], countries: ['DE'], empty: [] },
  { _id: 3, long: 'x'.repeat(65), nested: { deep: { list: [{ s: 'bench-project' }, [new Date(HOUR), 'DE']], when: new Date(HOUR) } } },
  { _id: new ObjectId('65f0c0ffee00000000000001'), bin: new Binary(Buffer.from('abc')), dec: new Decimal128('2.5'), big: Long.fromString('9007199254740993'), nil: null, zero: -0, utf: 'São Paulo' },
];

t.test('shared values of stored documents', async (t) => {
  forEachTarget(t, async (t, { db }) => {
    await t.test('should read back every document exactly as written, BSON types included', async (t) => {
      const coll = db.collection('shared');
      await coll.insertMany(DOCS.map((d) => ({ ...d })));
      const read = await coll.find({}, { promoteLongs: false }).sort({ _id: 1 }).toArray();
      const want = [...DOCS].sort((a, b) => (typeof a._id === 'number' ? (typeof b._id === 'number' ? a._id - b._id : -1) : 1));
      t.equal(read.length, want.length);
      for (let i = 0; i < want.length; i++) t.equal(Buffer.from(BSON.serialize(read[i])).toString('hex'), Buffer.from(BSON.serialize(want[i])).toString('hex'), `document ${String(want[i]._id)} is byte for byte the same`);
    });

    await t.test('should keep documents that share values independent under updates', async (t) => {
      const coll = db.collection<{ _id: string; hour: Date; tags: string[]; touched?: Date }>('shared_updates');
      await coll.insertMany([{ _id: 'a', hour: new Date(HOUR), tags: ['x'] }, { _id: 'b', hour: new Date(HOUR), tags: ['x'] }]);
      await coll.updateOne({ _id: 'a' }, { $addToSet: { tags: 'y' } });
      await coll.updateOne({ _id: 'a' }, { $set: { 'hour': new Date('2026-03-01T11:00:00Z') } });
      await coll.updateOne({ _id: 'a' }, { $currentDate: { touched: true } });
      t.same(await coll.findOne({ _id: 'b' }), { _id: 'b', hour: HOUR, tags: ['x'] });
      const { touched, ...a } = (await coll.findOne({ _id: 'a' }))!;
      t.same(a, { _id: 'a', hour: new Date('2026-03-01T11:00:00Z'), tags: ['x', 'y'] });
      t.type(touched, Date);
    });
  });

  t.test('should share whole-hour Dates and one-string lists, and leave other values their own', async (t) => {
    const coll = new Collection('db', 'c', {}, () => {});
    coll.insert({ _id: 1, hour: new Date(HOUR), ts: new Date('2026-03-01T10:17:03.250Z'), list: [new Date(HOUR)] });
    coll.insert({ _id: 2, hour: new Date(HOUR), ts: new Date('2026-03-01T10:17:03.250Z'), sub: { at: new Date(HOUR) }, one: ['DE'], two: ['DE', 'US'] });
    coll.insert({ _id: 3, one: ['DE'], two: ['DE', 'US'] });
    const [one, two, three] = coll.find({});
    t.equal(two.one, three.one, 'a list of one string is one array');
    t.ok(Object.isFrozen(two.one), 'frozen, so no in-place change reaches the other documents');
    t.not(two.two, three.two, 'longer lists stay each their own');
    t.same(two.two, three.two);
    t.equal(one.hour, two.hour, 'the hour is one object');
    t.equal(one.list[0], one.hour, 'also inside arrays');
    t.equal(two.sub.at, one.hour, 'and sub-documents');
    t.not(one.ts, two.ts, 'a millisecond instant keeps its own Date');
    t.same(one.ts, two.ts);
    // A new version built by an update shares its values too.
    const next = updatedVersion(two, { $set: { later: new Date(HOUR) } }, undefined, {})!;
    coll.replace(two, next);
    t.equal(coll.find({ _id: 2 })[0].later, one.hour);
  });
});

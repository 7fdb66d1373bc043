import { Decimal128, ObjectId, type Document } from 'bson';
import t from 'tap';
import { Collection } from '../src/collection.ts';
import { compileFastFilter } from '../src/fast-filter.ts';
import { compileFilter } from '../src/mingo-context.ts';

const d = (iso: string) => new Date(iso);

/** Documents of every shape a field can hold, including the ones the native filter defers on. */
const DOCS: Document[] = [
  { _id: 1, p: 'a', ts: d('2026-03-01T00:00:00Z'), n: 1, bot: false, path: '/x' },
  { _id: 2, p: 'a', ts: d('2026-03-02T00:00:00Z'), n: 2.5, bot: true, path: null },
  { _id: 3, p: 'b', ts: d('2026-03-03T00:00:00Z'), n: 3, bot: false },
  { _id: 4, p: ['a', 'b'], ts: [d('2026-03-01T12:00:00Z')], n: [1, 9], bot: [false], path: ['/x'] },
  { _id: 5, p: { sub: 'a' }, ts: '2026-03-01', n: '2', bot: 0, path: { p: 1 } },
  { _id: 6, ts: 1772323200000, n: new Decimal128('2.5'), bot: null, path: '/y' },
  { _id: 7, p: null, ts: null, n: null, path: [null] },
  { _id: 8, p: 'a', ts: d('2026-03-01T00:00:00Z'), n: -0, bot: true, path: '' },
];

const FILTERS: Document[] = [
  { p: 'a' },
  { p: null },
  { p: { $eq: 'b' } },
  { p: { $ne: 'a' } },
  { p: { $in: ['a', null] } },
  { p: 'a', ts: { $gte: d('2026-03-01T00:00:00Z'), $lt: d('2026-03-02T00:00:00Z') } },
  { ts: { $gt: d('2026-03-01T00:00:00Z') } },
  { ts: { $lte: d('2026-03-01T12:00:00Z') } },
  { n: { $gte: 2 } },
  { n: { $lt: 2, $gt: -1 } },
  { n: 0 },
  { bot: false },
  { bot: { $ne: true } },
  { path: { $ne: null } },
  { path: null },
  { path: '' },
  { p: 'a', bot: false, path: { $ne: null } },
  { ts: d('2026-03-01T00:00:00Z') },
  { $or: [{ p: 'a' }, { bot: true }] },
  { p: 'a', $or: [{ path: { $ne: null } }, { n: { $gte: 2 } }] },
  { $and: [{ p: { $in: ['a', 'b'] } }, { bot: { $ne: true } }] },
  // `$in` mixing strings (looked up in a set) with other scalars.
  { n: { $in: [1, '2', null] } },
  { path: { $in: ['/x', '', null] } },
  { ts: { $in: [d('2026-03-01T00:00:00Z'), '2026-03-01'] } },
];

const ids = (docs: Document[]) => docs.map((x) => x._id);

t.test('index lookups and the native filter', async (t) => {
  t.test('should select exactly what the full filter selects, for every filter and document shape', async (t) => {
    for (const filter of FILTERS) {
      const fast = compileFastFilter(filter);
      t.ok(fast, `${JSON.stringify(filter)} is compiled natively`);
      const full = compileFilter(filter);
      t.same(ids(DOCS.filter(fast!)), ids(DOCS.filter((x) => full.test(x))), JSON.stringify(filter));
    }
  });

  t.test('should leave filters it cannot mirror to the full evaluator', async (t) => {
    for (const filter of [{ $nor: [{ p: 'a' }] }, { $or: [] }, { $or: [{ 'p.sub': 'a' }] }, { 'p.sub': 'a' }, { p: /a/ }, { p: { $exists: true } }, { n: { $gt: 'a' } }, { p: { sub: 'a' } }, { n: { $in: [[1, 9]] } }, { p: {} }]) {
      t.equal(compileFastFilter(filter), undefined, JSON.stringify(filter));
    }
  });

  t.test('should find through the leading field of an index in natural order, across updates and removals', async (t) => {
    const c = new Collection('db', 'c', {}, () => {});
    for (const doc of DOCS.slice(0, 4)) c.insert({ ...doc });
    c.createIndex({ key: { p: 1, ts: 1 } });
    for (const doc of DOCS.slice(4)) c.insert({ ...doc });
    const check = (filter: Document, label: string) => {
      const full = compileFilter(filter);
      t.same(ids(c.find(filter)), ids([...c.docs.values()].filter((x) => full.test(x))), `${label}: ${JSON.stringify(filter)}`);
    };
    for (const filter of FILTERS) check(filter, 'after inserts');
    t.same(ids(c.candidates({ p: 'b' })), [3, 4, 5], 'only the value\'s documents and those holding arrays or documents are candidates');
    // Document 1 moves from a to b: it must come back in its natural place.
    c.replace(c.docs.get('n:1')!, { ...DOCS[0], p: 'b' });
    c.remove(c.docs.get('n:8')!);
    for (const filter of [...FILTERS, { p: { $in: ['b', 'a'] } }]) check(filter, 'after a move and a removal');
    t.same(ids(c.find({ p: 'b' })), [1, 3, 4]);
    c.dropIndex('p_1_ts_1');
    t.same(c.candidates({ p: 'b' }).length, 7, 'no lookup without the index');
    t.same(ids(c.find({ p: 'b' })), [1, 3, 4]);
  });

  t.test('should not keep a lookup for a TTL index, whose field reads compare by range', async (t) => {
    const c = new Collection('db', 'ttl', {}, () => {});
    c.createIndex({ key: { ts: 1 }, expireAfterSeconds: 3600 });
    for (const doc of DOCS) c.insert({ ...doc });
    t.same(c.candidates({ ts: d('2026-03-01T00:00:00Z') }).length, DOCS.length, 'every document is a candidate');
    t.same(ids(c.find({ ts: d('2026-03-01T00:00:00Z') })), [1, 8], 'and equality still finds exactly the matches');
  });

  t.test('should keep ObjectId-keyed documents findable by value', async (t) => {
    const c = new Collection('db', 'o', {}, () => {});
    c.createIndex({ key: { project_id: 1 } });
    const a = new ObjectId();
    c.insert({ _id: a, project_id: 'p1' });
    c.insert({ _id: new ObjectId(), project_id: 'p2' });
    t.same(c.find({ project_id: 'p1' }).map((x) => String(x._id)), [String(a)]);
  });
});

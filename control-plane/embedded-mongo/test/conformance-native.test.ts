/**
 * The shapes the server answers natively instead of through mingo (fast-filter.ts,
 * fast-update.ts, native-pipeline.ts), including the documents they hand back to mingo (missing
 * fields, nulls, arrays, values of other types), give the answers MongoDB gives. Runs through the
 * driver against the embedded server and, when `MONGODB_URI` is set, against real MongoDB.
 */
import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

const d = (iso: string): Date => new Date(iso);

const EVENTS = [
  { _id: 1, project_id: 'p', kind: 'page_view', ts: d('2026-03-01T10:00:00Z'), path: '/a', bot: false, n: 1 },
  { _id: 2, project_id: 'p', kind: 'page_view', ts: d('2026-03-01T11:30:00Z'), path: '/b', bot: true, n: 2 },
  { _id: 3, project_id: 'p', kind: 'search', ts: d('2026-03-02T09:00:00Z'), path: null, bot: false, n: '3' },
  { _id: 4, project_id: 'p', kind: 'page_view', ts: d('2026-03-03T00:00:00Z'), bot: false },
  { _id: 5, project_id: 'q', kind: 'page_view', ts: d('2026-03-01T10:00:00Z'), path: '/a', bot: false, n: 5 },
  { _id: 6, project_id: 'p', kind: 'page_view', ts: d('2026-03-01T12:00:00Z'), path: ['/a', '/c'], bot: false, n: 6.5 },
];

t.test('conformance: natively answered filters, updates and pipelines', async (t) => {
  forEachTarget(t, async (t, target) => {
    const { db } = target;
    const events = db.collection('events');
    await events.insertMany(EVENTS as never[]);
    const ids = async (filter: Record<string, unknown>) => (await events.find(filter, { projection: { _id: 1 }, sort: { _id: 1 } }).toArray()).map((e) => e._id);

    await t.test('should select with equality, $in, $ne, ranges and $or as MongoDB does', async (t) => {
      t.same(await ids({ project_id: 'p', kind: 'page_view' }), [1, 2, 4, 6]);
      t.same(await ids({ path: { $ne: null } }), [1, 2, 5, 6], '$ne null leaves out null and missing');
      t.same(await ids({ path: null }), [3, 4], 'null matches a missing field');
      t.same(await ids({ path: '/a' }), [1, 5, 6], 'equality matches an array element');
      t.same(await ids({ path: { $in: ['/c', null] } }), [3, 4, 6]);
      t.same(await ids({ ts: { $gte: d('2026-03-01T11:00:00Z'), $lt: d('2026-03-03T00:00:00Z') } }), [2, 3, 6]);
      t.same(await ids({ n: { $gt: 1 } }), [2, 5, 6], 'a range on numbers skips strings');
      t.same(await ids({ $or: [{ bot: true }, { kind: 'search' }], project_id: 'p' }), [2, 3]);
    });

    await t.test('should group missing and null keys together, sum only numbers and average nothing as null', async (t) => {
      const rows = await events.aggregate([
        { $match: { project_id: 'p', _id: { $ne: 6 } } },
        { $group: { _id: '$path', views: { $sum: 1 }, total: { $sum: '$n' }, avg: { $avg: '$n' } } },
        { $sort: { views: -1, _id: 1 } },
      ]).toArray();
      t.same(rows, [
        { _id: null, views: 2, total: 0, avg: null },
        { _id: '/a', views: 1, total: 1, avg: 1 },
        { _id: '/b', views: 1, total: 2, avg: 2 },
      ]);
    });

    await t.test('should $facet, $unwind, $count and $cond over the same input', async (t) => {
      const [facets] = await events.aggregate([
        { $match: { project_id: 'p' } },
        {
          $facet: {
            humans: [{ $match: { bot: false } }, { $count: 'n' }],
            kinds: [{ $group: { _id: null, views: { $sum: { $cond: [{ $eq: ['$kind', 'page_view'] }, 1, 0] } }, other: { $sum: { $cond: [{ $eq: ['$kind', 'page_view'] }, 0, 1] } } } }],
            paths: [{ $unwind: '$path' }, { $group: { _id: '$path', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
          },
        },
      ]).toArray();
      t.same(facets, {
        humans: [{ n: 4 }],
        kinds: [{ _id: null, views: 4, other: 1 }],
        paths: [{ _id: '/a', n: 2 }, { _id: '/b', n: 1 }, { _id: '/c', n: 1 }],
      }, '$unwind drops null and missing paths and a plain value unwinds as itself');
    });

    await t.test('should $inc and $addToSet through sub-documents, creating them on upsert', async (t) => {
      const rollups = db.collection('rollups');
      const update = (views: number, paths: string[]) => rollups.updateOne(
        { _id: 'p|1' as never },
        { $inc: { 'c.views': views, 'pv.k/a': 1 }, $addToSet: { paths: { $each: paths } }, $setOnInsert: { project_id: 'p' } },
        { upsert: true },
      );
      const first = await update(2, ['/a', '/b']);
      t.same([first.matchedCount, first.upsertedCount], [0, 1]);
      const second = await update(3, ['/b', '/c']);
      t.same([second.matchedCount, second.modifiedCount, second.upsertedCount], [1, 1, 0]);
      t.same(await rollups.findOne({ _id: 'p|1' as never }), { _id: 'p|1', project_id: 'p', c: { views: 5 }, pv: { 'k/a': 2 }, paths: ['/a', '/b', '/c'] });
      const none = await rollups.updateOne({ _id: 'p|1' as never }, { $addToSet: { paths: '/a' } });
      t.same([none.matchedCount, none.modifiedCount], [1, 0], 'adding a value already in the set changes nothing');
    });

    await t.test('should refuse $inc of a string with TypeMismatch and keep the document', async (t) => {
      const err = await events.updateOne({ _id: 3 as never }, { $inc: { n: 1 } }).catch((e: unknown) => e);
      t.match(err, { name: 'MongoServerError', code: 14 });
      t.same(await events.findOne({ _id: 3 as never }, { projection: { _id: 0, n: 1 } }), { n: '3' });
    });
  });
});

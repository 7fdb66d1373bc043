import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

const d = (iso: string): Date => new Date(iso);

/** [date, unit, timezone, extra args, expected] — expectations follow mongod's binning from 2000-01-01 local time. */
const TRUNC_CASES: Array<[string, string, string, Record<string, unknown>, string]> = [
  // Europe/Berlin, spring forward on 2024-03-31 (CET +1 → CEST +2).
  ['2024-03-30T23:30:00Z', 'day', 'Europe/Berlin', {}, '2024-03-30T23:00:00.000Z'],
  ['2024-03-31T12:00:00Z', 'day', 'Europe/Berlin', {}, '2024-03-30T23:00:00.000Z'],
  ['2024-03-31T22:30:00Z', 'day', 'Europe/Berlin', {}, '2024-03-31T22:00:00.000Z'],
  ['2024-03-31T21:30:00Z', 'month', 'Europe/Berlin', {}, '2024-02-29T23:00:00.000Z'],
  ['2024-03-31T23:30:00Z', 'month', 'Europe/Berlin', {}, '2024-03-31T22:00:00.000Z'],
  ['2024-05-15T12:00:00Z', 'month', 'Europe/Berlin', { binSize: 3 }, '2024-03-31T22:00:00.000Z'],
  // America/New_York, fall back on 2024-11-03 (EDT -4 → EST -5 at 06:00Z).
  ['2024-11-03T04:30:00Z', 'day', 'America/New_York', {}, '2024-11-03T04:00:00.000Z'],
  ['2024-11-03T12:00:00Z', 'day', 'America/New_York', {}, '2024-11-03T04:00:00.000Z'],
  ['2024-11-04T04:30:00Z', 'day', 'America/New_York', {}, '2024-11-03T04:00:00.000Z'],
  ['2024-11-04T05:30:00Z', 'day', 'America/New_York', {}, '2024-11-04T05:00:00.000Z'],
  ['2024-11-03T06:30:00Z', 'hour', 'America/New_York', {}, '2024-11-03T06:00:00.000Z'],
  ['2024-11-03T10:00:00Z', 'hour', 'America/New_York', { binSize: 6 }, '2024-11-03T05:00:00.000Z'],
  ['2024-11-06T15:00:00Z', 'week', 'America/New_York', { startOfWeek: 'monday' }, '2024-11-04T05:00:00.000Z'],
  ['2024-11-06T15:00:00Z', 'week', 'America/New_York', {}, '2024-11-03T04:00:00.000Z'],
  // Asia/Kolkata, +05:30 all year.
  ['2024-06-10T20:00:00Z', 'day', 'Asia/Kolkata', {}, '2024-06-10T18:30:00.000Z'],
  ['2024-06-10T20:00:00Z', 'hour', 'Asia/Kolkata', {}, '2024-06-10T19:30:00.000Z'],
  ['2024-06-10T20:07:00Z', 'minute', 'Asia/Kolkata', { binSize: 15 }, '2024-06-10T20:00:00.000Z'],
  // Australia/Lord_Howe: +11 in summer, +10:30 in winter (a half-hour DST shift on 2024-04-07).
  ['2024-04-07T12:00:00Z', 'day', 'Australia/Lord_Howe', {}, '2024-04-06T13:00:00.000Z'],
  ['2024-07-01T03:10:00Z', 'day', 'Australia/Lord_Howe', {}, '2024-06-30T13:30:00.000Z'],
  ['2024-07-01T03:10:00Z', 'hour', 'Australia/Lord_Howe', {}, '2024-07-01T03:00:00.000Z'],
  // Pacific/Chatham: +12:45 in winter.
  ['2024-07-01T00:00:00Z', 'day', 'Pacific/Chatham', {}, '2024-06-30T11:15:00.000Z'],
  ['2024-07-03T00:00:00Z', 'week', 'Pacific/Chatham', { startOfWeek: 'monday' }, '2024-06-30T11:15:00.000Z'],
  ['2024-07-03T00:00:00Z', 'week', 'Pacific/Chatham', { startOfWeek: 'sunday' }, '2024-06-29T11:15:00.000Z'],
  // UTC with bins counted from the 2000-01-01 reference (weeks from the first Sunday, 2000-01-02).
  ['2000-01-09T10:00:00Z', 'day', 'UTC', { binSize: 7 }, '2000-01-08T00:00:00.000Z'],
  ['2000-01-12T00:00:00Z', 'week', 'UTC', { binSize: 2 }, '2000-01-02T00:00:00.000Z'],
];

t.test('conformance: aggregation', async (t) => {
  forEachTarget(t, async (t, { db }) => {
    const sales = db.collection('sales');
    await sales.insertMany([
      { _id: 1 as never, item: 'a', qty: 2, price: 10, tags: ['x', 'y'] },
      { _id: 2 as never, item: 'b', qty: 1, price: 20, tags: ['y'] },
      { _id: 3 as never, item: 'a', qty: 5, price: 10, tags: [] },
      { _id: 4 as never, item: 'c', qty: 3, price: 5, tags: ['z'] },
    ]);

    await t.test('should run $match, $group, $sort, $skip, $limit and $project', async (t) => {
      const out = await sales.aggregate([
        { $match: { qty: { $gte: 1 } } },
        { $group: { _id: '$item', total: { $sum: { $multiply: ['$qty', '$price'] } }, n: { $sum: 1 } } },
        { $sort: { total: -1 } },
        { $skip: 1 },
        { $limit: 2 },
        { $project: { _id: 0, item: '$_id', total: 1 } },
      ]).toArray();
      t.same(out, [{ total: 20, item: 'b' }, { total: 15, item: 'c' }]);
    });

    await t.test('should run $unwind, $count, $addFields and $facet', async (t) => {
      t.same(await sales.aggregate([{ $unwind: '$tags' }, { $count: 'n' }]).toArray(), [{ n: 4 }]);
      const added = await sales.aggregate([{ $match: { _id: 2 } }, { $addFields: { value: { $multiply: ['$qty', '$price'] } } }, { $project: { _id: 0, value: 1 } }]).toArray();
      t.same(added, [{ value: 20 }]);
      const [facets] = await sales.aggregate([{ $facet: { items: [{ $group: { _id: '$item' } }, { $sort: { _id: 1 } }], big: [{ $match: { qty: { $gt: 2 } } }, { $count: 'n' }] } }]).toArray();
      t.same(facets, { items: [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }], big: [{ n: 2 }] });
    });

    await t.test('should page an aggregate cursor with batchSize', async (t) => {
      const first = await db.command({ aggregate: 'sales', pipeline: [{ $sort: { _id: 1 } }], cursor: { batchSize: 3 } });
      t.same(first.cursor.firstBatch.map((x: { _id: number }) => x._id), [1, 2, 3]);
      const more = await db.command({ getMore: first.cursor.id, collection: 'sales' });
      t.same(more.cursor.nextBatch.map((x: { _id: number }) => x._id), [4]);
      t.equal(String(more.cursor.id), '0');
    });

    await t.test('should $lookup from another collection', async (t) => {
      await db.collection('items').insertMany([{ _id: 'a' as never, label: 'Apple' }, { _id: 'b' as never, label: 'Banana' }]);
      const out = await sales.aggregate([{ $match: { _id: 2 } }, { $lookup: { from: 'items', localField: 'item', foreignField: '_id', as: 'info' } }, { $project: { _id: 0, info: 1 } }]).toArray();
      t.same(out, [{ info: [{ _id: 'b', label: 'Banana' }] }]);
    });

    await t.test('should $dateTrunc in every zone across DST as mongod does', async (t) => {
      const dates = db.collection('dates');
      await dates.insertMany(TRUNC_CASES.map(([date], i) => ({ _id: i as never, date: d(date) })));
      const out = await dates.aggregate([
        { $sort: { _id: 1 } },
        { $project: { _id: 0, t: { $switch: { branches: TRUNC_CASES.map(([, unit, timezone, extra], i) => ({ case: { $eq: ['$_id', i] }, then: { $dateTrunc: { date: '$date', unit, timezone, ...extra } } })) } } } },
      ]).toArray();
      t.same(out.map((o) => (o.t as Date).toISOString()), TRUNC_CASES.map((c) => c[4]));
    });

    await t.test('should group by $dateTrunc buckets in a zone east of UTC', async (t) => {
      const visits = db.collection('visits');
      await visits.insertMany([d('2024-03-30T22:30:00Z'), d('2024-03-30T23:30:00Z'), d('2024-03-31T21:59:00Z'), d('2024-03-31T22:01:00Z')].map((at) => ({ at })));
      const out = await visits.aggregate([
        { $group: { _id: { $dateTrunc: { date: '$at', unit: 'day', timezone: 'Europe/Berlin' } }, views: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ]).toArray();
      t.same(out.map((o) => [(o._id as Date).toISOString(), o.views]), [['2024-03-29T23:00:00.000Z', 1], ['2024-03-30T23:00:00.000Z', 2], ['2024-03-31T22:00:00.000Z', 1]]);
    });

    await t.test('should $dateToParts in a zone, calendar and ISO', async (t) => {
      const [out] = await db.collection('dates').aggregate([
        { $limit: 1 },
        { $project: { _id: 0, ist: { $dateToParts: { date: d('2024-06-10T20:00:00Z'), timezone: 'Asia/Kolkata' } }, iso: { $dateToParts: { date: d('2024-12-30T12:00:00Z'), timezone: 'Europe/Berlin', iso8601: true } } } },
      ]).toArray();
      t.same(out, {
        ist: { year: 2024, month: 6, day: 11, hour: 1, minute: 30, second: 0, millisecond: 0 },
        iso: { isoWeekYear: 2025, isoWeek: 1, isoDayOfWeek: 1, hour: 13, minute: 0, second: 0, millisecond: 0 },
      });
    });
  });
});

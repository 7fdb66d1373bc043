import t from 'tap';
import { aiInsights } from '../../src/analytics/ai-insights.ts';
import { breakdown } from '../../src/analytics/breakdown.ts';
import { bucketStarts } from '../../src/analytics/buckets.ts';
import { classify } from '../../src/analytics/classify.ts';
import { overview } from '../../src/analytics/overview.ts';
import { DIMENSIONS, resolveWindow } from '../../src/analytics/query-params.ts';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { DAY_FORMAT } from '../../src/analytics/rollup-batch.ts';
import { backfillRollups, daysToBackfill } from '../../src/analytics/rollup-backfill.ts';
import { SaltStore, utcDay } from '../../src/analytics/visitor-hash.ts';
import { randomEvents } from '../helpers/analytics-events.ts';
import { startTestApi } from '../helpers/api.ts';

const PROJECT = 'p-backfill';

t.test('analytics rollup backfill', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const events = randomEvents(99, 3000, PROJECT);
  // A third recorded with rollups; the rest stored raw only, as a version without rollups (and
  // without `hour_key`) stored them, on the same days and on others.
  const rec = new AnalyticsRecorder(m, { batchSize: 250, flushIntervalMs: 60_000 });
  for (const e of events.slice(0, 1000)) rec.record(e);
  await rec.close();
  const salts = new SaltStore(m);
  const old = [];
  for (const e of events.slice(1000)) {
    const doc = classify(e, e.at!, await salts.salt(utcDay(e.at!)));
    delete doc.hour_key;
    old.push(doc);
  }
  await m.AnalyticsEvent.collection.insertMany(old);
  // A day's uniques in the earlier format (per scope, no bot class), which reads would add up.
  await m.AnalyticsDayUniques.collection.insertOne({ _id: `${PROJECT}|${Date.UTC(2026, 2, 5)}|all`, project_id: PROJECT, day: new Date(Date.UTC(2026, 2, 5)), scope: 'all', basis: 1, total: 999, hours: [], dims: {} } as never);

  const windows = [
    { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-03T00:00:00Z') },
    { from: new Date('2026-03-04T09:20:00Z'), to: new Date('2026-03-27T17:45:00Z') },
    resolveWindow({}, new Date('2026-03-31T14:27:13.500Z')),
  ];
  const queries = (w: { from: Date; to: Date }) => [
    ...[true, false].map((excludeBots) => (raw: boolean) => overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'Europe/Berlin', excludeBots, buckets: bucketStarts(w.from, w.to, 'day', 'Europe/Berlin', 1500) }, { raw })),
    ...DIMENSIONS.map((dimension) => (raw: boolean) => breakdown(m, { ...w, projectId: PROJECT, dimension, limit: 250, excludeBots: false }, { raw })),
    (raw: boolean) => aiInsights(m, { ...w, projectId: PROJECT, limit: 20 }, { raw }),
  ];

  t.test('should find the days whose raw events were not all rolled up', async (t) => {
    const days = await daysToBackfill(m);
    t.ok(days.length >= 30, `${days.length} days`);
    t.ok(days.every((d) => d.projectId === PROJECT));
    const w = windows[0];
    const first = await overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) });
    const raw = await overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) }, { raw: true });
    t.ok(first.totals.views < raw.totals.views, 'before the backfill the rollups miss the old events');
  });

  t.test('should answer every query from rollups exactly as the raw events do once backfilled', async (t) => {
    const result = await backfillRollups(m, { batchSize: 400 });
    t.equal(result.events, 3000, 'every raw event of the rebuilt days rolled up');
    t.ok(result.days >= 30);
    t.equal(await m.AnalyticsEvent.countDocuments({ project_id: PROJECT, hour_key: { $exists: false } }), 0, 'old events got their hour key');
    t.equal(await m.AnalyticsDayUniques.countDocuments({ project_id: PROJECT, bot: { $exists: false } }), 0, 'day uniques of the earlier format are gone');
    for (const w of windows) {
      for (const q of queries(w)) t.same(await q(false), await q(true), `from ${w.from.toISOString()}`);
    }
  });

  t.test('should do nothing when run again, and keep counting events recorded after it', async (t) => {
    t.same(await backfillRollups(m), { days: 0, events: 0, summed: 0 });
    const rec2 = new AnalyticsRecorder(m, { batchSize: 100, flushIntervalMs: 60_000 });
    for (const e of randomEvents(5, 500, PROJECT)) rec2.record(e);
    await rec2.close();
    t.same(await backfillRollups(m), { days: 0, events: 0, summed: 0 });
    for (const q of queries(windows[0])) t.same(await q(false), await q(true));
  });

  t.test('should read older day documents hour by hour, then give them their hours\' sums', async (t) => {
    // Day documents as written before they held the day rollup: uniques, `pv` and `views` only.
    const days = await m.AnalyticsDayUniques.find({ project_id: PROJECT }).lean();
    t.ok(days.length > 30 && days.every((d) => d.format === DAY_FORMAT), 'the recorder writes the day rollup');
    await m.AnalyticsDayUniques.updateMany({ project_id: PROJECT }, { $unset: { format: 1, c: 1, fam: 1, air: 1, aip: 1, sq: 1, hv: 1 } });
    for (const d of days) await m.AnalyticsDayUniques.updateOne({ _id: d._id }, { $set: { views: d.c?.views ?? 0 } });
    for (const w of windows) for (const q of queries(w)) t.same(await q(false), await q(true), `older days, from ${w.from.toISOString()}`);
    t.same(await backfillRollups(m), { days: 0, events: 0, summed: days.length });
    t.same(await m.AnalyticsDayUniques.find({ project_id: PROJECT }).sort({ _id: 1 }).lean(), days.sort((a, b) => (a._id < b._id ? -1 : 1)), 'the sums are what the recorder writes');
    t.same(await backfillRollups(m), { days: 0, events: 0, summed: 0 });
    for (const w of windows) for (const q of queries(w)) t.same(await q(false), await q(true), `summed days, from ${w.from.toISOString()}`);
  });

  t.test('should leave a day alone whose raw events expired (its rollups are the better record)', async (t) => {
    const w = windows[0];
    const before = await overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) });
    await m.AnalyticsEvent.deleteMany({ project_id: PROJECT, ts: { $lt: new Date('2026-03-10T00:00:00Z') } });
    t.same(await backfillRollups(m), { days: 0, events: 0, summed: 0 });
    t.same(await overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) }), before);
  });
});

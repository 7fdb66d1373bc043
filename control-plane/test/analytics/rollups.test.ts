import t from 'tap';
import { aiInsights } from '../../src/analytics/ai-insights.ts';
import { breakdown } from '../../src/analytics/breakdown.ts';
import { bucketStarts, type Unit } from '../../src/analytics/buckets.ts';
import { overview } from '../../src/analytics/overview.ts';
import { DIMENSIONS, resolveWindow } from '../../src/analytics/query-params.ts';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { countsIn } from '../../src/analytics/rollup-days.ts';
import { decodeKey, encodeKey } from '../../src/analytics/rollup-keys.ts';
import { rollupsCover } from '../../src/analytics/rollup-window.ts';
import { randomEvents } from '../helpers/analytics-events.ts';
import { startTestApi } from '../helpers/api.ts';

const PROJECT = 'p-rollups';
const HOUR = 3_600_000;
t.test('analytics rollups', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const rec = new AnalyticsRecorder(m, { batchSize: 300, flushIntervalMs: 60_000 });
  // Several batches touch the same hours: upserts must add up across batches.
  for (const e of randomEvents(20260301, 4000, PROJECT)) rec.record(e);
  await rec.close();
  t.same(rec.stats(), { received: 4000, inserted: 4000, dropped: 0, failed: 0, buffered: 0 });

  const windows = [
    { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-03T00:00:00Z') },
    { from: new Date('2026-03-06T07:00:00Z'), to: new Date('2026-03-30T05:00:00Z') },
    // Part hours at both edges: whole hours from rollups, the edges from raw events.
    { from: new Date('2026-03-06T07:20:00Z'), to: new Date('2026-03-30T05:45:30.500Z') },
    // Edges on the days before and after the whole hours.
    { from: new Date('2026-03-09T23:40:00Z'), to: new Date('2026-03-20T00:10:00Z') },
    // Two part hours around one whole hour of the same day.
    { from: new Date('2026-03-10T08:15:00Z'), to: new Date('2026-03-10T10:30:00Z') },
    // The default window (no from, no to) as a request at a moment inside an hour resolves it.
    resolveWindow({}, new Date('2026-03-31T14:27:13.500Z')),
  ];
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
  const units: Unit[] = ['hour', 'day', 'week', 'month'];
  const overviewCases = windows.flatMap((w) => zones.flatMap((tz) => units.flatMap((unit) => [true, false].map((excludeBots) => ({
    ...w, projectId: PROJECT, unit, tz, excludeBots, buckets: bucketStarts(w.from, w.to, unit, tz, 1500),
  })))));
  const raw = { raw: true };

  t.test('should answer every overview exactly as the raw events do (units, zones east and west, DST weeks, bots in and out)', async (t) => {
    for (const q of overviewCases) {
      const label = `${q.unit} ${q.tz} bots ${q.excludeBots ? 'out' : 'in'} from ${q.from.toISOString()}`;
      t.equal(rollupsCover(q, q.unit, q.tz), true, `${label} is read from rollups`);
      const expected = await overview(m, q, raw);
      t.same(await overview(m, q), expected, label);
    }
    const all = await overview(m, overviewCases[0], raw);
    t.ok(all.totals.views > 1000 && all.totals.unique_visitors > 50 && all.totals.searches > 100, 'the event set is not trivial');
    t.ok(all.ai_split.length >= 4, 'humans, AI families and other bots');
  });

  t.test('should answer every breakdown exactly as the raw events do', async (t) => {
    for (const w of windows) {
      for (const dimension of DIMENSIONS) {
        for (const excludeBots of [true, false]) {
          for (const limit of [2, 250]) {
            const q = { ...w, projectId: PROJECT, dimension, limit, excludeBots };
            const expected = await breakdown(m, q, raw);
            t.same(await breakdown(m, q), expected, `${dimension} bots ${excludeBots ? 'out' : 'in'} limit ${limit} from ${w.from.toISOString()}`);
            // The two-hour window is too short for every dimension to have rows.
            if (limit === 250 && w.to.getTime() - w.from.getTime() > 24 * HOUR) t.ok(expected.results.length > 0, `${dimension} has rows`);
          }
        }
      }
    }
  });

  t.test('should answer AI insights exactly as the raw events do', async (t) => {
    for (const w of windows) {
      for (const limit of [1, 3, 20]) {
        const q = { ...w, projectId: PROJECT, limit };
        const expected = await aiInsights(m, q, raw);
        t.same(await aiInsights(m, q), expected, `limit ${limit} from ${w.from.toISOString()}`);
      }
    }
    const body = await aiInsights(m, { ...windows[0], projectId: PROJECT, limit: 20 }, raw);
    t.ok(body.crawlers.length === 2 && body.usage.llm_exports > 0 && body.usage.ai_referrals > 0 && body.usage.assistant_messages > 0, 'every part has counts');
  });

  t.test('should read whole UTC days from one document each and only the cut days\' hours from hourly rollups', async (t) => {
    const w = windows[2];
    const counts = await countsIn(m, PROJECT, w, ['c', 'fam', 'hv']);
    const firstWhole = Date.UTC(2026, 2, 7);
    const afterWhole = Date.UTC(2026, 2, 30);
    t.same([...new Set(counts.days.map((d) => new Date(d.day).getTime()))].sort((a, b) => a - b), Array.from({ length: 23 }, (_, i) => firstWhole + i * 24 * HOUR), 'March 7 to 29 from day documents');
    t.ok(counts.hours.length > 0 && counts.hours.every((h) => new Date(h.hour).getTime() < firstWhole || new Date(h.hour).getTime() >= afterWhole), 'hourly rollups only on March 6 and 30');
    t.ok(counts.edges.rollups.length > 0, 'the part hours at the edges from raw events');
    const views = (docs: { c?: Record<string, number> }[]) => docs.reduce((n, d) => n + (d.c?.views ?? 0), 0);
    t.equal(views(counts.days) + views(counts.hours), (await overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) }, raw)).totals.views, 'their views add up to the raw count');
  });

  t.test('should keep day uniques exact as visitors return in later batches of recorders writing at once', async (t) => {
    const cases = overviewCases.filter((c) => c.from.getTime() === windows[0].from.getTime() && c.unit !== 'hour' && c.tz === 'UTC');
    for (const q of cases) t.same(await overview(m, q), await overview(m, q, raw), 'before');
    t.ok(await m.AnalyticsDayUniques.countDocuments({ project_id: PROJECT }) > 20, 'day uniques are kept per day');
    // Two recorders (as two processes would) write the same visitors' days concurrently.
    const late = [new AnalyticsRecorder(m, { batchSize: 100, flushIntervalMs: 60_000 }), new AnalyticsRecorder(m, { batchSize: 70, flushIntervalMs: 60_000 })];
    randomEvents(7, 1200, PROJECT).forEach((e, i) => late[i % 2].record(e));
    await Promise.all(late.map((r) => r.close()));
    for (const q of cases) t.same(await overview(m, q), await overview(m, q, raw), `${q.unit} bots ${q.excludeBots ? 'out' : 'in'} after`);
    for (const dimension of ['pages', 'countries', 'channels'] as const) {
      const q = { ...windows[0], projectId: PROJECT, dimension, limit: 250, excludeBots: true };
      t.same(await breakdown(m, q), await breakdown(m, q, raw), `${dimension} after`);
    }
  });

  t.test('should read raw events for minute buckets, zones with part-hour offsets and windows without a whole hour', async (t) => {
    const w = windows[0];
    t.equal(rollupsCover(w, 'minute', 'UTC'), false);
    t.equal(rollupsCover(w, 'hour', 'Asia/Kolkata'), false);
    t.equal(rollupsCover(w, 'day', 'Asia/Kathmandu'), false);
    t.equal(rollupsCover({ from: new Date('2026-03-01T00:30:00Z'), to: new Date('2026-03-01T01:29:00Z') }), false);
    t.equal(rollupsCover({ from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-01T00:59:59.999Z') }), false);
    t.equal(rollupsCover({ from: new Date('2026-03-01T00:30:00Z'), to: new Date('2026-03-01T02:00:00Z') }), true);
    t.equal(rollupsCover(w, 'day', 'Europe/Berlin'), true);
  });

  t.test('should escape map keys so paths with dots, dollars and percents round-trip', async (t) => {
    for (const v of ['/v1.2/api', '/a$b', '/100%25', '%2E', '']) t.equal(decodeKey(encodeKey(v)), v);
    t.equal(encodeKey('/v1.2/$x%'), 'k/v1%2E2/%24x%25');
    t.equal(decodeKey(encodeKey(null)), null);
  });

  t.test('should keep answering from rollups once raw events are past retention', async (t) => {
    const q = overviewCases.find((c) => c.unit === 'day' && c.tz === 'Europe/Berlin' && c.excludeBots)!;
    const hourly = { ...q, unit: 'hour' as const, buckets: bucketStarts(q.from, q.to, 'hour', q.tz, 1500) };
    const before = {
      overview: await overview(m, q, raw), hourly: await overview(m, hourly, raw), pages: await breakdown(m, { ...q, dimension: 'pages', limit: 20 }, raw),
      searches: await breakdown(m, { ...q, dimension: 'searches', limit: 20 }, raw), ai: await aiInsights(m, { ...q, limit: 20 }, raw),
    };
    await m.AnalyticsEvent.deleteMany({ project_id: PROJECT });
    t.same(await overview(m, q), before.overview);
    t.same(await overview(m, hourly), before.hourly);
    t.same(await breakdown(m, { ...q, dimension: 'pages', limit: 20 }), before.pages);
    t.same(await breakdown(m, { ...q, dimension: 'searches', limit: 20 }), before.searches);
    t.same(await aiInsights(m, { ...q, limit: 20 }), before.ai);
    t.equal((await overview(m, q, raw)).totals.views, 0, 'the raw events are gone');
  });
});

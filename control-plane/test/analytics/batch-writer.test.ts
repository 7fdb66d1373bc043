import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { aiInsights } from '../../src/analytics/ai-insights.ts';
import { DriverBatchWriter, EmbeddedBatchWriter, type BatchWriter } from '../../src/analytics/batch-writer.ts';
import { breakdown } from '../../src/analytics/breakdown.ts';
import { bucketStarts } from '../../src/analytics/buckets.ts';
import { ensureAnalyticsIndexes } from '../../src/analytics/indexes.ts';
import { overview } from '../../src/analytics/overview.ts';
import { DIMENSIONS } from '../../src/analytics/query-params.ts';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { connectDatabase, inProcessCommands, type Database } from '../../src/db/connect.ts';
import { models, type Models } from '../../src/db/models/index.ts';
import { randomEvents } from '../helpers/analytics-events.ts';

const PROJECT = 'p-writers';
const EVENTS = randomEvents(20260412, 3000, PROJECT);

/** Every stored analytics document of `m`, as JSON (key order included); events without their random `_id`, sorted. */
async function stored(m: Models): Promise<Record<string, string[]>> {
  const all = async (model: { find(q: object): { lean(): Promise<unknown[]> } }, dropId = false) => (await model.find({}).lean())
    .map((d) => { const { _id, ...rest } = d as Record<string, unknown>; return JSON.stringify(dropId ? rest : { _id, ...rest }); })
    .sort();
  return {
    events: await all(m.AnalyticsEvent, true),
    rollups: await all(m.AnalyticsRollup),
    visitorHours: await all(m.AnalyticsVisitorHour),
    visitorDays: await all(m.AnalyticsVisitorDay),
    days: await all(m.AnalyticsDayUniques),
  };
}

/** Records `EVENTS` through `m`'s recorder (several batches per hour, so visitors span batches). */
async function record(m: Models): Promise<AnalyticsRecorder> {
  const rec = new AnalyticsRecorder(m, { batchSize: 250, flushIntervalMs: 60_000 });
  for (const e of EVENTS) rec.record(e);
  await rec.close();
  return rec;
}

t.test('analytics batch writers', async (t) => {
  // One embedded server run by this process: `embedded` reaches it in-process, `driver` through
  // the driver and the wire as real MongoDB would (another database of the same server).
  const embedded = await connectDatabase();
  t.teardown(() => embedded.close());
  const driver = await connectDatabase({ mongodbUri: embedded.uri, dbName: 'folio_driver' });
  t.teardown(() => driver.close());
  const mE = models(embedded.connection);
  const mD = models(driver.connection);
  for (const m of [mE, mD]) await ensureAnalyticsIndexes(m, 4000);

  const recE = await record(mE);
  // The same visitor salts, so both databases hash visitors alike.
  await mD.AnalyticsSalt.insertMany(await mE.AnalyticsSalt.find({}).lean());
  const recD = await record(mD);

  t.test('should write in-process on the embedded server this process runs, through the driver otherwise', async (t) => {
    t.equal(recE.writer.kind, 'embedded');
    t.equal(recD.writer.kind, 'driver');
    t.same(recE.stats(), { received: 3000, inserted: 3000, dropped: 0, failed: 0, buffered: 0 });
    t.same(recD.stats(), recE.stats());
  });

  t.test('should store identical documents through both writers', async (t) => {
    const [a, b] = [await stored(mE), await stored(mD)];
    for (const name of Object.keys(a)) {
      t.ok(a[name].length > 0, `${name} were written`);
      t.equal(a[name].length, b[name].length, `as many ${name}`);
      t.same(a[name], b[name], `the same ${name}, key order included`);
    }
  });

  t.test('should answer every query identically through both writers', async (t) => {
    const windows = [
      { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-03T00:00:00Z') },
      { from: new Date('2026-03-06T07:20:00Z'), to: new Date('2026-03-30T05:45:30.500Z') },
    ];
    for (const w of windows) {
      const label = `from ${w.from.toISOString()}`;
      for (const [unit, tz] of [['day', 'UTC'], ['hour', 'Europe/Berlin']] as const) {
        const q = { ...w, projectId: PROJECT, unit, tz, excludeBots: false, buckets: bucketStarts(w.from, w.to, unit, tz, 1500) };
        const answer = await overview(mE, q);
        t.same(answer, await overview(mD, q), `overview ${unit} ${tz} ${label}`);
        t.ok(answer.totals.views > 500 && answer.totals.unique_visitors > 20, 'the overview is not trivial');
      }
      for (const dimension of DIMENSIONS) {
        const q = { ...w, projectId: PROJECT, dimension, limit: 250, excludeBots: true };
        t.same(await breakdown(mE, q), await breakdown(mD, q), `breakdown ${dimension} ${label}`);
      }
      const ai = await aiInsights(mE, { ...w, projectId: PROJECT, limit: 20 });
      t.same(ai, await aiInsights(mD, { ...w, projectId: PROJECT, limit: 20 }), `AI insights ${label}`);
    }
  });

  t.test('should refuse a duplicate `_id` with the same error through both writers', async (t) => {
    const writers: BatchWriter[] = [new EmbeddedBatchWriter(mE, inProcessCommands(embedded.connection)!), new DriverBatchWriter(mD)];
    for (const w of writers) {
      await t.rejects(w.insert('visitorHours', [{ _id: `dup-${w.kind}` }, { _id: `dup-${w.kind}` }]), { code: 11000 }, `${w.kind}: insert throws E11000`);
      t.same([...await w.insertNew('visitorHours', [{ _id: `dup-${w.kind}` }, { _id: `new-${w.kind}` }, { _id: `new-${w.kind}` }])], [0, 2], `${w.kind}: insertNew names the existing ones`);
    }
  });

  t.test('should replay after a restart what the in-process writer wrote', async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-writer-'));
    t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    let db: Database = await connectDatabase({ dataDir });
    t.teardown(() => db.close());
    const m = models(db.connection);
    await ensureAnalyticsIndexes(m, 4000);
    const rec = await record(m);
    t.equal(rec.writer.kind, 'embedded');
    const before = await stored(m);
    t.ok(before.rollups.length > 0 && before.visitorDays.length > 0, 'rollups were written');
    // Whole UTC days (read from day documents) and a week in Berlin across its DST change.
    const w = { from: new Date('2026-03-02T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z') };
    const answers = async (mm: Models) => ({
      byDay: await overview(mm, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) }),
      byWeek: await overview(mm, { ...w, projectId: PROJECT, unit: 'week', tz: 'Europe/Berlin', excludeBots: true, buckets: bucketStarts(w.from, w.to, 'week', 'Europe/Berlin', 1500) }),
      searches: await breakdown(mm, { ...w, projectId: PROJECT, dimension: 'searches', limit: 20, excludeBots: true }),
      ai: await aiInsights(mm, { ...w, projectId: PROJECT, limit: 20 }),
    });
    const answered = await answers(m);
    t.ok(answered.byDay.totals.views > 500, 'the answers are not trivial');
    await db.close();
    db = await connectDatabase({ dataDir });
    t.same(await stored(models(db.connection)), before, 'every document is back');
    t.same(await answers(models(db.connection)), answered, 'every answer is the same');
  });
});

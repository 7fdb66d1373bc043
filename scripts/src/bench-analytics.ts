/**
 * `npm run bench:analytics`: loads BENCH_EVENTS (default 1,000,000) synthetic events of one site
 * over 30 days through the analytics recorder (classification, hashing, batched inserts) and
 * prints ingestion events/s, then the latency of the overview, every breakdown and the AI
 * insights over those 30 days. Runs on the embedded database, or on real MongoDB when
 * MONGODB_URI is set. Prints the load average it ran under (the machine may be shared) and,
 * beside each wall-clock figure, the CPU time this process spent (the embedded database runs in
 * it), which a busy machine does not inflate: events per CPU second is what one free core would
 * ingest.
 */
import os from 'node:os';
import { connectDatabase, models } from '@folio/control-plane';
import { aiInsights } from '@folio/control-plane/analytics/ai-insights.ts';
import { breakdown } from '@folio/control-plane/analytics/breakdown.ts';
import { bucketStarts } from '@folio/control-plane/analytics/buckets.ts';
import { ensureAnalyticsIndexes } from '@folio/control-plane/analytics/indexes.ts';
import { overview } from '@folio/control-plane/analytics/overview.ts';
import { DIMENSIONS } from '@folio/control-plane/analytics/query-params.ts';
import { AnalyticsRecorder } from '@folio/control-plane/analytics/recorder.ts';
import { syntheticTraffic } from './analytics/synthetic-traffic.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const DAYS = 30;
const PROJECT = 'bench-project';
const PAGES = Array.from({ length: 200 }, (_, i) => (i === 0 ? '/' : `/guides/page-${i}`));

const db = await connectDatabase({ mongodbUri: process.env.MONGODB_URI });
const m = models(db.connection);
await m.AnalyticsEvent.deleteMany({ project_id: PROJECT });
await m.AnalyticsRollup.deleteMany({ project_id: PROJECT });
await m.AnalyticsVisitorHour.deleteMany({ project_id: PROJECT });
await m.AnalyticsDayUniques.deleteMany({ project_id: PROJECT });
await ensureAnalyticsIndexes(m, 400);
console.log(`database: ${process.env.MONGODB_URI ? 'MongoDB (MONGODB_URI)' : 'embedded'}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${os.cpus().length} cores`);

/** CPU milliseconds this process has used (user + system). */
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// Whole hours, as a dashboard asks: such windows are answered from the hourly rollups.
const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const recorder = new AnalyticsRecorder(m, { batchSize: 2_000, maxBuffer: 100_000, flushIntervalMs: 60_000 });
const started = performance.now();
const cpuStarted = cpuMs();
let n = 0;
for (const e of syntheticTraffic({ projectId: PROJECT, host: 'docs.example.com', pages: PAGES, days: DAYS, events: EVENTS, end })) {
  recorder.record(e);
  // Backpressure for the bench only: live serving never waits, it drops past the buffer.
  if (++n % 50_000 === 0) await recorder.flush();
}
await recorder.close();
const seconds = (performance.now() - started) / 1000;
const cpuSeconds = (cpuMs() - cpuStarted) / 1000;
const stats = recorder.stats();
console.log(`ingestion: ${stats.inserted.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s = ${Math.round(stats.inserted / seconds).toLocaleString('en-US')} events/s (dropped ${stats.dropped}, failed ${stats.failed}; goal 20,000/s); CPU ${cpuSeconds.toFixed(1)} s = ${Math.round(stats.inserted / cpuSeconds).toLocaleString('en-US')} events per CPU second`);

const window = { from: new Date(end.getTime() - DAYS * 86_400_000), to: end };
const timed = async (label: string, fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  const c0 = cpuMs();
  await fn();
  const ms = performance.now() - t0;
  const cpu = cpuMs() - c0;
  console.log(`${label.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms (CPU ${cpu.toFixed(0).padStart(5)} ms)${ms > 300 ? '  (over the 300 ms goal)' : ''}`);
};
console.log(`queries over ${DAYS} days (goal ≤ 300 ms each; load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
// The first reads of a window count each UTC day's unique visitors once and cache them
// (analytics/rollup-uniques.ts); the lines after it are what every later read costs.
await timed('first read (caches days)', () => breakdown(m, { ...window, projectId: PROJECT, dimension: 'pages', limit: 20, excludeBots: true }));
await timed('first read, bots in', () => breakdown(m, { ...window, projectId: PROJECT, dimension: 'pages', limit: 20, excludeBots: false }));
await timed('overview (day, UTC)', () => overview(m, { ...window, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: true, buckets: bucketStarts(window.from, window.to, 'day', 'UTC', 1500) }));
await timed('overview (hour, Berlin)', () => overview(m, { ...window, projectId: PROJECT, unit: 'hour', tz: 'Europe/Berlin', excludeBots: false, buckets: bucketStarts(window.from, window.to, 'hour', 'Europe/Berlin', 1500) }));
for (const dimension of DIMENSIONS) await timed(`breakdown ${dimension}`, () => breakdown(m, { ...window, projectId: PROJECT, dimension, limit: 20, excludeBots: true }));
await timed('ai insights', () => aiInsights(m, { ...window, projectId: PROJECT, limit: 20 }));
await db.close();

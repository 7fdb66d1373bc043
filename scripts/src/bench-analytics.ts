/**
 * `npm run bench:analytics`: loads BENCH_EVENTS (default 1,000,000) synthetic events of one site
 * over 30 days through the analytics recorder (classification, hashing, batched inserts) and
 * prints ingestion events/s, then the latency of the overview, every breakdown and the AI
 * insights over those 30 days, twice: over whole hours (as a dashboard asks) and over the default
 * window (no from/to: up to now, inside an hour). Each query runs twice in a row: its first read
 * (cold) and a repeat (warm). Runs on the embedded database, or on real MongoDB when
 * MONGODB_URI is set. Prints the load average it ran under (the machine may be shared) and,
 * beside each wall-clock figure, the CPU time this process spent (the embedded database runs in
 * it), which a busy machine does not inflate: events per CPU second is what one free core would
 * ingest. Runs with the control plane's Node flags (root package.json: the young generation's
 * size, see control-plane/docs/analytics.md) and prints them, since they change the garbage collector's
 * share of the figures. The CPU the bench spends making its synthetic events (in chunks of 1,000,
 * between records) is measured and also printed apart: events per CPU second of ingestion alone
 * leave it out, since a live recorder is handed its events.
 */
import os from 'node:os';
import { connectDatabase, models } from '@folio/control-plane';
import { aiInsights } from '@folio/control-plane/analytics/ai-insights.ts';
import { breakdown } from '@folio/control-plane/analytics/breakdown.ts';
import { bucketStarts } from '@folio/control-plane/analytics/buckets.ts';
import { ensureAnalyticsIndexes } from '@folio/control-plane/analytics/indexes.ts';
import { overview } from '@folio/control-plane/analytics/overview.ts';
import { DIMENSIONS, resolveWindow } from '@folio/control-plane/analytics/query-params.ts';
import type { EventInput } from '@folio/control-plane/analytics/event-input.ts';
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
await m.AnalyticsVisitorDay.deleteMany({ project_id: PROJECT });
await m.AnalyticsDayUniques.deleteMany({ project_id: PROJECT });
await ensureAnalyticsIndexes(m, 400);
console.log(`database: ${process.env.MONGODB_URI ? 'MongoDB (MONGODB_URI)' : 'embedded'}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${os.cpus().length} cores; Node flags: ${process.execArgv.filter((a) => /^--max-/.test(a)).join(' ') || 'none'}`);

/** CPU milliseconds this process has used (user + system). */
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// Whole hours, as a dashboard asks: such windows are answered from the hourly rollups.
const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const recorder = new AnalyticsRecorder(m, { batchSize: 2_000, maxBuffer: 100_000, flushIntervalMs: 60_000 });
const started = performance.now();
const cpuStarted = cpuMs();
let n = 0;
/** CPU the bench spent making its synthetic events (not ingestion), measured per 1,000 events. */
let generatingMs = 0;
/** Heap in use after each 100,000 events: what a stored event costs the in-process database. */
const heapSteps: string[] = [];
const source = syntheticTraffic({ projectId: PROJECT, host: 'docs.example.com', pages: PAGES, days: DAYS, events: EVENTS, end });
for (;;) {
  const g0 = cpuMs();
  const chunk: EventInput[] = [];
  for (let r = source.next(); !r.done; r = source.next()) if (chunk.push(r.value) === 1_000) break;
  generatingMs += cpuMs() - g0;
  if (chunk.length === 0) break;
  for (const e of chunk) {
    recorder.record(e);
    // Backpressure for the bench only: live serving never waits, it drops past the buffer.
    if (++n % 50_000 === 0) await recorder.flush();
    if (n % 100_000 === 0) heapSteps.push(`${n / 1000}k: ${Math.round(process.memoryUsage().heapUsed / 1_048_576)}`);
  }
}
await recorder.close();
const seconds = (performance.now() - started) / 1000;
const cpuSeconds = (cpuMs() - cpuStarted) / 1000;
const ingestCpuSeconds = cpuSeconds - generatingMs / 1000;
const stats = recorder.stats();
const heapMb = Math.round(process.memoryUsage().heapUsed / 1_048_576);
const rate = (events: number, s: number) => Math.round(events / s).toLocaleString('en-US');
console.log(`heap used (MB) after each 100,000 events, garbage included: ${heapSteps.join(', ')}`);
console.log(`ingestion: ${stats.inserted.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s = ${rate(stats.inserted, seconds)} events/s (dropped ${stats.dropped}, failed ${stats.failed}; goal 20,000/s); CPU ${cpuSeconds.toFixed(1)} s = ${rate(stats.inserted, cpuSeconds)} events per CPU second, of which making the synthetic events ${(generatingMs / 1000).toFixed(1)} s: ingestion alone ${rate(stats.inserted, ingestCpuSeconds)} events per CPU second; heap after it ${heapMb.toLocaleString('en-US')} MB (the embedded database holds everything in this process)`);

const timed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  const c0 = cpuMs();
  await fn();
  return { ms: performance.now() - t0, cpu: cpuMs() - c0 };
};
const figure = (f: { ms: number; cpu: number }) => `${f.ms.toFixed(0).padStart(6)} ms (CPU ${f.cpu.toFixed(0).padStart(5)})`;
/** Every query over `w`, each run twice: its first (cold) read, then again (warm). */
async function queries(title: string, w: { from: Date; to: Date }) {
  console.log(`${title} (goal ≤ 300 ms each; load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
  console.log(`${''.padEnd(24)} ${'cold'.padStart(20)}   ${'warm'.padStart(20)}`);
  const all: [string, () => Promise<unknown>][] = [
    ['overview (day, UTC)', () => overview(m, { ...w, projectId: PROJECT, unit: 'day', tz: 'UTC', excludeBots: true, buckets: bucketStarts(w.from, w.to, 'day', 'UTC', 1500) })],
    ['overview (hour, Berlin)', () => overview(m, { ...w, projectId: PROJECT, unit: 'hour', tz: 'Europe/Berlin', excludeBots: false, buckets: bucketStarts(w.from, w.to, 'hour', 'Europe/Berlin', 1500) })],
    ...DIMENSIONS.map((dimension) => [`breakdown ${dimension}`, () => breakdown(m, { ...w, projectId: PROJECT, dimension, limit: 20, excludeBots: true })] as [string, () => Promise<unknown>]),
    ['breakdown pages, bots in', () => breakdown(m, { ...w, projectId: PROJECT, dimension: 'pages', limit: 20, excludeBots: false })],
    ['ai insights', () => aiInsights(m, { ...w, projectId: PROJECT, limit: 20 })],
  ];
  for (const [label, fn] of all) {
    const cold = await timed(fn);
    const warm = await timed(fn);
    const over = Math.max(cold.ms, warm.ms) > 300 ? '  (over the 300 ms goal)' : '';
    console.log(`${label.padEnd(24)} ${figure(cold)}   ${figure(warm)}${over}`);
  }
}
// A dashboard's whole hours, then the default window (no from/to: to is now, inside an hour).
await queries(`queries over ${DAYS} days of whole hours`, { from: new Date(end.getTime() - DAYS * 86_400_000), to: end });
await queries(`queries over the default window (the last ${DAYS} days up to now)`, resolveWindow({}, new Date()));
await db.close();

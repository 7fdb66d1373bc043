/**
 * `npm run bench:analytics-steps`: where the CPU of analytics ingestion goes. Loads BENCH_EVENTS
 * (default 1,000,000) synthetic events like `npm run bench:analytics`, but runs the recorder's
 * steps itself, batch by batch, with `process.cpuUsage()` marks around each one: making the
 * synthetic events (not ingestion: the bench's own cost), classification, the raw-event insert,
 * building the rollup deltas, and each write of the rollups (by collection and kind). Garbage
 * collection is counted apart from the steps it lands in (its pauses, from `perf_hooks`), and
 * the objects allocated per event are estimated from the heap's growth between collections.
 * Prints each step's share and CPU microseconds per event. Embedded database only (the steps
 * are the in-process writer's).
 */
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { connectDatabase, models } from '@folio/control-plane';
import type { AnalyticsEvent } from '@folio/control-plane/db/models/analytics-event.ts';
import { batchWriterFor, type BatchTarget, type BatchUpdate, type BatchWriter } from '@folio/control-plane/analytics/batch-writer.ts';
import { classify } from '@folio/control-plane/analytics/classify.ts';
import type { EventInput } from '@folio/control-plane/analytics/event-input.ts';
import { ensureAnalyticsIndexes } from '@folio/control-plane/analytics/indexes.ts';
import { writeRollups } from '@folio/control-plane/analytics/rollup-batch.ts';
import { rollupDeltas } from '@folio/control-plane/analytics/rollup-writes.ts';
import { SaltStore, utcDay } from '@folio/control-plane/analytics/visitor-hash.ts';
import type { Document } from 'bson';
import { syntheticTraffic } from './analytics/synthetic-traffic.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = 2_000;
const PROJECT = 'bench-project';
const PAGES = Array.from({ length: 200 }, (_, i) => (i === 0 ? '/' : `/guides/page-${i}`));

const db = await connectDatabase({});
const m = models(db.connection);
await ensureAnalyticsIndexes(m, 400);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; Node flags: ${process.execArgv.filter((a) => /^--max-/.test(a)).join(' ') || 'none'}`);

const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system; };
const steps = new Map<string, number>();
/** Runs `fn`, adding its CPU time to `step`. */
async function step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  const c0 = cpuUs();
  try { return await fn(); } finally { steps.set(name, (steps.get(name) ?? 0) + cpuUs() - c0); }
}

/**
 * Adds the CPU of `fn`'s synchronous part to `name`: the in-process writer runs each command
 * synchronously and only then waits (for nothing, in memory), and calls run side by side
 * (`Promise.all`), so timing up to each promise's end would count the others' work too.
 */
function syncStep<T>(name: string, fn: () => T): T {
  const c0 = cpuUs();
  try { return fn(); } finally { steps.set(name, (steps.get(name) ?? 0) + cpuUs() - c0); }
}

/** The in-process writer, each call counted as its own step. */
class TimedWriter implements BatchWriter {
  readonly kind;
  private readonly inner: BatchWriter;
  constructor(inner: BatchWriter) { this.inner = inner; this.kind = inner.kind; }
  insert(t: BatchTarget, docs: Document[]) { return syncStep(`write ${t} insert`, () => this.inner.insert(t, docs)); }
  insertNew(t: BatchTarget, docs: Document[]) { return syncStep(`write ${t} insertNew`, () => this.inner.insertNew(t, docs)); }
  update(t: BatchTarget, u: BatchUpdate[]) { return syncStep(`write ${t} update`, () => this.inner.update(t, u)); }
  findOneAndUpdate(t: BatchTarget, id: string, u: Document, f: string[]) { return syncStep(`write ${t} findOneAndUpdate`, () => this.inner.findOneAndUpdate(t, id, u, f)); }
}

let gcMs = 0;
let gcs = 0;
/** Pauses per kind of collection (scavenges of the young generation, full mark-compacts, ...). */
const gcKinds = new Map<string, { n: number; ms: number }>();
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'minor mark-sweep', 4: 'mark-compact', 8: 'incremental marking', 16: 'weak callbacks' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    gcs++;
    const kind = GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
    const k = gcKinds.get(kind) ?? { n: 0, ms: 0 };
    k.n++;
    k.ms += e.duration;
    gcKinds.set(kind, k);
  }
}).observe({ entryTypes: ['gc'] });

const writer = new TimedWriter(batchWriterFor(m));
const salts = new SaltStore(m);
const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const source = syntheticTraffic({ projectId: PROJECT, host: 'docs.example.com', pages: PAGES, days: 30, events: EVENTS, end });
const started = performance.now();
const cpuStarted = cpuUs();
let n = 0;
for (;;) {
  const batch: EventInput[] = await step('make synthetic events (bench only)', () => {
    const out: EventInput[] = [];
    for (let r = source.next(); !r.done; r = source.next()) { out.push(r.value); if (out.length === BATCH) break; }
    return out;
  });
  if (batch.length === 0) break;
  // As the recorder does: one salt per UTC day of the batch, keyed by the day's number.
  const dayOf = (e: EventInput) => Math.floor(e.at!.getTime() / 86_400_000);
  const daySalts = new Map<number, string>();
  for (const e of batch) { const d = dayOf(e); if (!daySalts.has(d)) daySalts.set(d, await salts.salt(utcDay(e.at!))); }
  const docs = await step('classify (agent, channel, geo, hash, document)', () => batch.map((e) => classify(e, e.at!, daySalts.get(dayOf(e))!)));
  await writer.insert('events', docs);
  // writeRollups builds the deltas again inside; this pass only measures what building them costs.
  await step('rollup deltas (measured apart, also inside write rollups)', () => rollupDeltas(docs as AnalyticsEvent[]));
  const w0 = cpuUs();
  await writeRollups(writer, docs);
  steps.set('rollups outside writes (deltas, bookkeeping)', (steps.get('rollups outside writes (deltas, bookkeeping)') ?? 0) + cpuUs() - w0);
  n += docs.length;
}
const total = cpuUs() - cpuStarted;
const wall = (performance.now() - started) / 1000;
// The writes happened inside writeRollups: take them out of its row.
const writes = [...steps].filter(([k]) => k.startsWith('write ') && k !== 'write events insert').reduce((s, [, v]) => s + v, 0);
steps.set('rollups outside writes (deltas, bookkeeping)', steps.get('rollups outside writes (deltas, bookkeeping)')! - writes);
console.log(`${n.toLocaleString('en-US')} events, wall ${wall.toFixed(1)} s, CPU ${(total / 1e6).toFixed(1)} s; ${gcs} collections, ${(gcMs / 1000).toFixed(1)} s of pauses (inside the steps below), heap ${Math.round(process.memoryUsage().heapUsed / 1_048_576)} MB`);
const ingest = total - (steps.get('make synthetic events (bench only)') ?? 0) - (steps.get('rollup deltas (measured apart, also inside write rollups)') ?? 0);
console.log(`ingestion alone (without making events and the extra deltas pass): ${(ingest / 1e6).toFixed(1)} s CPU = ${Math.round(n / (ingest / 1e6)).toLocaleString('en-US')} events per CPU second; GC pauses ${(100 * gcMs * 1000 / ingest).toFixed(0)}% of it`);
console.log(`collections: ${[...gcKinds].map(([k, v]) => `${k} ${v.n} (${(v.ms / 1000).toFixed(1)} s)`).join(', ')}`);
for (const [name, us] of [...steps].sort((a, b) => b[1] - a[1])) {
  console.log(`${name.padEnd(58)} ${(us / 1e6).toFixed(2).padStart(7)} s  ${(100 * us / total).toFixed(1).padStart(5)}%  ${(us / n).toFixed(2).padStart(6)} µs/event`);
}
await db.close();

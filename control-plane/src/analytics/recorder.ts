/**
 * The analytics recorder: the one call every part uses to record an event
 * (`recorder.record({ projectId, kind, ..., visit })`). `record()` only appends to an in-memory
 * buffer and returns at once, so a page is never slowed by analytics; the buffer is classified
 * and written in batches (analytics/batch-writer.ts: unordered inserts, then one upsert per hourly rollup and
 * visitor-hour the batch touches, and the day uniques, analytics/rollup-batch.ts) when it holds a batch or on a timer. When the
 * buffer is full (the database is slow or down), new events are dropped and counted, never
 * waited for.
 */
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import type { Models } from '../db/models/index.ts';
import { batchWriterFor, type BatchWriter } from './batch-writer.ts';
import { classify } from './classify.ts';
import type { EventInput } from './event-input.ts';
import { writeRollups } from './rollup-batch.ts';
import { backfillRollups, type BackfillResult } from './rollup-backfill.ts';
import { SaltStore, utcDay } from './visitor-hash.ts';

/** Options of {@link AnalyticsRecorder}. */
export interface RecorderOptions {
  /** Events held in memory at most; beyond it events are dropped. Default 50,000. */
  maxBuffer?: number;
  /** Events per insert. Default 1,000. */
  batchSize?: number;
  /** Longest an event waits in the buffer, in ms. Default 1,000. */
  flushIntervalMs?: number;
  /** Clock for events recorded without `at`. */
  now?: () => Date;
  /**
   * Where batches go. Default: straight to the embedded database when this process runs it, the
   * driver otherwise (analytics/batch-writer.ts).
   */
  writer?: BatchWriter;
  /** Called with a write error (the batch is counted as failed). */
  onError?: (err: unknown) => void;
}

/** Ingestion counters, read by a metrics endpoint. */
export interface RecorderStats {
  /** Events handed to `record()`. */
  received: number;
  /** Events written to the database. */
  inserted: number;
  /** Events refused because the buffer was full. */
  dropped: number;
  /** Events lost to a failed write. */
  failed: number;
  /** Events waiting in the buffer now. */
  buffered: number;
}

interface Pending { input: EventInput; at: Date }

const DAY_MS = 86_400_000;

export class AnalyticsRecorder {
  private buffer: Pending[] = [];
  private readonly counters = { received: 0, inserted: 0, dropped: 0, failed: 0 };
  private readonly maxBuffer: number;
  private readonly batchSize: number;
  private readonly now: () => Date;
  private readonly salts: SaltStore;
  /** The writer of every batch (chosen at start, analytics/batch-writer.ts). */
  readonly writer: BatchWriter;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;

  private readonly opts: RecorderOptions;
  private readonly m: Models;

  constructor(m: Models, opts: RecorderOptions = {}) {
    this.m = m;
    this.opts = opts;
    this.maxBuffer = opts.maxBuffer ?? 50_000;
    this.batchSize = opts.batchSize ?? 1_000;
    this.now = opts.now ?? (() => new Date());
    this.salts = new SaltStore(m);
    this.writer = opts.writer ?? batchWriterFor(m);
    this.timer = setInterval(() => void this.flush(), opts.flushIntervalMs ?? 1_000);
    this.timer.unref();
  }

  /**
   * Records one event; never throws and never waits. Returns false when the event was dropped
   * (buffer full).
   */
  record(input: EventInput): boolean {
    this.counters.received++;
    if (this.buffer.length >= this.maxBuffer) {
      this.counters.dropped++;
      return false;
    }
    this.buffer.push({ input, at: input.at ?? this.now() });
    if (this.buffer.length >= this.batchSize && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => { this.scheduled = false; void this.flush(); });
    }
    return true;
  }

  /** The counters (a copy). */
  stats(): RecorderStats {
    return { ...this.counters, buffered: this.buffer.length };
  }

  /** Writes everything buffered so far; resolves when it is in the database (or counted as failed). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  /**
   * Rolls up raw events that were never rolled up (analytics/rollup-backfill.ts), in the write
   * chain: this recorder's batches wait (buffered, dropped past the buffer) instead of racing it.
   */
  backfill(): Promise<BackfillResult> {
    const run = this.flushing.then(() => backfillRollups(this.m));
    this.flushing = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Flushes and stops the timer. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      try {
        // One salt lookup per UTC day of the batch: a batch of CDN logs or history can span more
        // days than the salt cache holds, and asking per event would cost a round trip each.
        // Keyed by the day's number: formatting each event's instant as a date string cost more
        // than the lookup.
        const salts = new Map<number, string>();
        for (const p of batch) {
          const day = Math.floor(p.at.getTime() / DAY_MS);
          if (!salts.has(day)) salts.set(day, await this.salts.salt(utcDay(p.at)));
        }
        const docs: AnalyticsEvent[] = [];
        for (const p of batch) docs.push(classify(p.input, p.at, salts.get(Math.floor(p.at.getTime() / DAY_MS))!));
        // The writer takes the documents over; rollups below only read them.
        await this.writer.insert('events', docs);
        // The batch's hourly rollups, visitor-hours and day uniques (analytics/rollup-batch.ts).
        await writeRollups(this.writer, docs);
        this.counters.inserted += docs.length;
      } catch (err) {
        this.counters.failed += batch.length;
        this.opts.onError?.(err);
      }
    }
  }
}

/**
 * Where the analytics recorder's batches go: raw events, visitor-hours, visitor-days, day uniques
 * and hourly rollups, with the few kinds of writes a batch needs. Chosen once, at start, by
 * {@link batchWriterFor}:
 *
 * - on the embedded database run by this same process (the default: no `MONGODB_URI`), the
 *   commands go straight to its collections ({@link EmbeddedBatchWriter}): ingestion is mostly
 *   writes, and through the driver each batch was encoded to BSON, sent over a local socket and
 *   decoded again, then upserted one round trip per rollup batch; that encoding, decoding and the
 *   garbage of its copies cost more CPU than the inserts themselves. The commands are the ones the
 *   driver would send, run by the same handlers, so documents, `_id`s, unique checks, update
 *   semantics and the journal are the same, and every query answers as before;
 * - on real MongoDB, or an embedded server another process owns, the driver
 *   ({@link DriverBatchWriter}), unchanged.
 */
import type { Document } from 'bson';
import { mongo } from 'mongoose';
import { inProcessCommands } from '../db/connect.ts';
import type { Models } from '../db/models/index.ts';
import type { InProcessCommands } from '@folio/embedded-mongo';

/** The collections a batch writes to. */
export type BatchTarget = 'events' | 'rollups' | 'visitorHours' | 'visitorDays' | 'days';

/** One update of a batch: the first document matching `filter` (or a new one with `upsert`). */
export interface BatchUpdate { filter: Document; update: Document; upsert?: boolean }

/**
 * The writes of an analytics batch. Writers take ownership of what they are given: callers must
 * not change documents, filters or updates once handed over.
 */
export interface BatchWriter {
  /** `driver` or `embedded` (what {@link batchWriterFor} chose). */
  readonly kind: 'driver' | 'embedded';
  /** Inserts `docs` unordered; throws on any refused document. */
  insert(target: BatchTarget, docs: Document[]): Promise<void>;
  /**
   * Inserts `docs` unordered; the indexes of those refused because their `_id` already exists
   * (all others are inserted). Any other error is thrown.
   */
  insertNew(target: BatchTarget, docs: Document[]): Promise<Set<number>>;
  /** Runs the updates unordered (each on at most one document). */
  update(target: BatchTarget, updates: BatchUpdate[]): Promise<void>;
  /** Updates the document with `_id`, returning its fields `fields` from before the update (null when none). */
  findOneAndUpdate(target: BatchTarget, id: string, update: Document, fields: string[]): Promise<Document | null>;
}

const DUPLICATE_KEY = 11000;

/** The model holding each target's collection. */
function collectionOf(m: Models, target: BatchTarget): mongo.Collection<Document> {
  const model = { events: m.AnalyticsEvent, rollups: m.AnalyticsRollup, visitorHours: m.AnalyticsVisitorHour, visitorDays: m.AnalyticsVisitorDay, days: m.AnalyticsDayUniques }[target];
  return model.collection as unknown as mongo.Collection<Document>;
}

const projectionOf = (fields: string[]): Document => Object.fromEntries(fields.map((f) => [f, 1]));

/** Writes through the driver (real MongoDB, or an embedded server in another process). */
export class DriverBatchWriter implements BatchWriter {
  readonly kind = 'driver';
  private readonly m: Models;

  constructor(m: Models) {
    this.m = m;
  }

  async insert(target: BatchTarget, docs: Document[]): Promise<void> {
    await collectionOf(this.m, target).insertMany(docs, { ordered: false });
  }

  async insertNew(target: BatchTarget, docs: Document[]): Promise<Set<number>> {
    try {
      await collectionOf(this.m, target).insertMany(docs, { ordered: false });
      return new Set();
    } catch (err) {
      const errors = (err as { writeErrors?: { index: number; code?: number } | { index: number; code?: number }[] }).writeErrors;
      const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
      if (list.length === 0 || list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      return new Set(list.map((e) => e.index));
    }
  }

  async update(target: BatchTarget, updates: BatchUpdate[]): Promise<void> {
    await collectionOf(this.m, target).bulkWrite(updates.map((u) => ({ updateOne: { filter: u.filter, update: u.update, upsert: u.upsert ?? false } })), { ordered: false });
  }

  findOneAndUpdate(target: BatchTarget, id: string, update: Document, fields: string[]): Promise<Document | null> {
    return collectionOf(this.m, target).findOneAndUpdate({ _id: id } as Document, update, { returnDocument: 'before', projection: projectionOf(fields), includeResultMetadata: false });
  }
}

/** The error of a failed command or write, as the driver would throw it. */
function commandError(e: Document): mongo.MongoServerError {
  return new mongo.MongoServerError({ message: String(e.errmsg ?? 'write failed'), errmsg: String(e.errmsg ?? ''), code: e.code as number | undefined, codeName: e.codeName as string | undefined });
}

/** Writes straight to the collections of the embedded server run by this process (see the file comment). */
export class EmbeddedBatchWriter implements BatchWriter {
  readonly kind = 'embedded';
  private readonly commands: InProcessCommands;
  private readonly db: string;
  private readonly names: Record<BatchTarget, string>;

  constructor(m: Models, commands: InProcessCommands) {
    this.commands = commands;
    this.db = m.AnalyticsEvent.db.name;
    const targets: BatchTarget[] = ['events', 'rollups', 'visitorHours', 'visitorDays', 'days'];
    this.names = Object.fromEntries(targets.map((t) => [t, collectionOf(m, t).collectionName])) as Record<BatchTarget, string>;
  }

  /** Runs a command; its write errors (possibly none), or throws when the command failed. */
  private async run(cmd: Document): Promise<Document[]> {
    const reply = await this.commands.command(this.db, cmd);
    if (reply.ok !== 1) throw commandError(reply);
    return (reply.writeErrors ?? []) as Document[];
  }

  async insert(target: BatchTarget, docs: Document[]): Promise<void> {
    const [first] = await this.run({ insert: this.names[target], documents: docs, ordered: false });
    if (first) throw commandError(first);
  }

  async insertNew(target: BatchTarget, docs: Document[]): Promise<Set<number>> {
    const errors = await this.run({ insert: this.names[target], documents: docs, ordered: false });
    const other = errors.find((e) => e.code !== DUPLICATE_KEY);
    if (other) throw commandError(other);
    return new Set(errors.map((e) => e.index as number));
  }

  async update(target: BatchTarget, updates: BatchUpdate[]): Promise<void> {
    const [first] = await this.run({ update: this.names[target], updates: updates.map((u) => ({ q: u.filter, u: u.update, upsert: u.upsert ?? false, multi: false })), ordered: false });
    if (first) throw commandError(first);
  }

  async findOneAndUpdate(target: BatchTarget, id: string, update: Document, fields: string[]): Promise<Document | null> {
    const reply = await this.commands.command(this.db, { findAndModify: this.names[target], query: { _id: id }, update, fields: projectionOf(fields), new: false });
    if (reply.ok !== 1) throw commandError(reply);
    return (reply.value ?? null) as Document | null;
  }
}

/**
 * The writer for `m`'s database: in-process when this process runs its embedded server, the
 * driver otherwise.
 */
export function batchWriterFor(m: Models): BatchWriter {
  const commands = inProcessCommands(m.AnalyticsEvent.db);
  return commands ? new EmbeddedBatchWriter(m, commands) : new DriverBatchWriter(m);
}

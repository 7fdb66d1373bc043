/**
 * Embedded MongoDB-wire-compatible server.
 *
 * When no `MONGODB_URI` is configured the control plane starts this server in-process on
 * 127.0.0.1 and connects mongoose to it, so the production code path (mongoose → driver → wire
 * protocol) runs everywhere. The one exception is the analytics recorder's batch writes, which
 * run the same commands in-process (`inProcess`, see in-process.ts): ingestion is nearly all
 * writes, and the wire's encoding and decoding cost it more than the writes themselves. Query, update and aggregation semantics come from mingo; `$dateTrunc`
 * and `$dateToParts` are our own (correct time zones across DST), and so is `$text`.
 *
 * Wire protocol: OP_MSG (body and document-sequence sections, `moreToCome`) and the legacy
 * OP_QUERY handshake answered with OP_REPLY. No compression, no authentication, no TLS.
 *
 * Commands: hello/isMaster, ping, buildInfo, insert, find, getMore, killCursors, update (multi,
 * upsert, operators, replacement, pipeline, arrayFilters), delete, findAndModify, count,
 * distinct, aggregate, createIndexes/listIndexes/dropIndexes (unique, compound, sparse, partial,
 * text; TTL indexes expire documents once a minute), listCollections, create, drop, dropDatabase, listDatabases, endSessions,
 * abortTransaction/commitTransaction (acknowledged, no isolation). Anything else answers
 * `CommandNotFound` (59) with mongod's wording.
 *
 * Concurrency: every command runs synchronously to completion before the next starts, so
 * findAndModify and conditional updates such as `{ used: { $lt: limit } }` + `$inc` are atomic.
 *
 * Durability (with `dataDir`): each change is appended to a journal of checksummed BSON records;
 * a command that wrote is answered only after its records are fsynced (concurrent writers share
 * one fsync). On start the latest snapshot is loaded and newer journals replayed; a torn final
 * record is ignored. The journal is compacted into a fresh snapshot (temp file, fsync, rename)
 * on start and whenever it grows past a threshold.
 */
import { InProcessCommands } from './in-process.ts';
import { Journal } from './journal.ts';
import { Store } from './store.ts';
import { sweepExpired, TTL_INTERVAL_MS } from './ttl-sweeper.ts';
import { WireServer } from './wire-server.ts';

export { MongoCommandError } from './errors.ts';
export { supportedCommands } from './command-router.ts';
export type { InProcessCommands } from './in-process.ts';

/** Options of {@link startEmbeddedMongo}. */
export interface EmbeddedMongoOptions {
  /** Directory for the journal and snapshots. Default: none, data lives in memory only. */
  dataDir?: string;
  /** TCP port. Default 0: an ephemeral port chosen by the OS. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
}

/** A running embedded server. */
export interface EmbeddedMongo {
  /** Connection string for mongoose or the driver: `mongodb://127.0.0.1:<port>/?directConnection=true`. */
  uri: string;
  port: number;
  /**
   * Commands for code in this same process, straight to the collections (no driver, no wire):
   * used by the analytics recorder's batch writes (analytics/batch-writer.ts).
   */
  inProcess: InProcessCommands;
  /** Stops listening, drops connections and closes the journal (all acknowledged writes are already durable). */
  close(): Promise<void>;
}

/**
 * Starts the server. Without `dataDir` it is in-memory (tests); with it, every acknowledged
 * write survives a crash.
 */
export async function startEmbeddedMongo(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = opts.host ?? '127.0.0.1';
  const store = new Store();
  const journal = opts.dataDir ? await Journal.open(opts.dataDir, store) : undefined;
  const counter = { written: 0 };
  const inner = store.record;
  store.record = (r) => {
    counter.written++;
    if (journal) journal.append(r);
    else inner(r);
  };
  const commit = journal ? () => journal.flush() : () => Promise.resolve();
  const wire = new WireServer(store, counter, commit);
  let port: number;
  try {
    port = await wire.listen(opts.port ?? 0, host);
  } catch (err) {
    await journal?.close();
    throw err;
  }
  const ttl = setInterval(() => {
    if (sweepExpired(store) > 0) journal?.flush().catch(() => {});
  }, TTL_INTERVAL_MS);
  ttl.unref();
  const uriHost = host.includes(':') ? `[${host}]` : host;
  return {
    uri: `mongodb://${uriHost}:${port}/?directConnection=true`,
    port,
    inProcess: new InProcessCommands(store, counter, commit, wire.cursors),
    async close() {
      clearInterval(ttl);
      await wire.close();
      await journal?.close();
    },
  };
}

/**
 * Connects mongoose: to MONGODB_URI when set, otherwise to an embedded MongoDB-wire-compatible
 * server started in-process (durable in `<dataDir>/db`, or in memory when no dataDir is given),
 * so one code path serves production, a laptop and the tests.
 *
 * Only one process may own a data directory's embedded server. The owner writes its address to
 * `<dataDir>/db-endpoint.json`; another process on the same data (the `keys` and `orgs`
 * commands while the platform runs) finds the live owner there and connects to it instead.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import mongoose from 'mongoose';
import type { EmbeddedMongo, InProcessCommands } from '@folio/embedded-mongo';
import { AppError } from '../errors.ts';
import { syncIndexes } from './models/index.ts';

export interface Database {
  connection: mongoose.Connection;
  /** The URI mongoose is connected to (the embedded server's when embedded). */
  uri: string;
  /** True when this process runs the embedded server. */
  embedded: boolean;
  close(): Promise<void>;
}

export interface ConnectOptions {
  mongodbUri?: string;
  /** Data directory for the embedded server; omitted → in memory. */
  dataDir?: string;
  /** Database name (default `folio`). */
  dbName?: string;
  /**
   * Refuse a data directory another live process owns (the platform itself: two platforms on
   * one data directory would share its database but not its repositories and sites).
   */
  exclusive?: boolean;
}

/** Connections to the embedded server this process runs → its in-process commands. */
const inProcess = new WeakMap<mongoose.Connection, InProcessCommands>();

/**
 * The in-process commands of the embedded server behind `connection` when this process runs it
 * (no `MONGODB_URI`, no other owner of the data directory); undefined for real MongoDB or a
 * server in another process, where the driver is the only way in.
 */
export function inProcessCommands(connection: mongoose.Connection): InProcessCommands | undefined {
  return inProcess.get(connection);
}

function processAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err: any) { return err?.code === 'EPERM'; }
}

function portAnswers(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** The URI of a live embedded server that owns `dataDir`, if any. */
async function liveOwner(endpointFile: string): Promise<string | undefined> {
  try {
    const { uri, pid, port, host } = JSON.parse(fs.readFileSync(endpointFile, 'utf8'));
    if (pid !== process.pid && processAlive(pid) && await portAnswers(port, host)) return uri;
  } catch { /* no owner */ }
  return undefined;
}

export async function connectDatabase(opts: ConnectOptions = {}): Promise<Database> {
  let embedded: EmbeddedMongo | undefined;
  let uri = opts.mongodbUri;
  const endpointFile = opts.dataDir ? path.join(opts.dataDir, 'db-endpoint.json') : undefined;
  if (!uri && endpointFile) uri = await liveOwner(endpointFile);
  if (uri && !opts.mongodbUri && opts.exclusive) {
    const { pid } = JSON.parse(fs.readFileSync(endpointFile!, 'utf8')) as { pid: number };
    throw new AppError(409, 'data_dir_in_use', `DATA_DIR ${opts.dataDir} is in use by another Folio platform (process ${pid}); stop it first, or set DATA_DIR to another folder`);
  }
  if (!uri) {
    // Loaded only when this process runs the server: a command beside a running platform, or
    // one using MONGODB_URI, never loads the query engine.
    const { startEmbeddedMongo } = await import('@folio/embedded-mongo');
    embedded = await startEmbeddedMongo({ dataDir: opts.dataDir ? path.join(opts.dataDir, 'db') : undefined });
    uri = embedded.uri;
    if (endpointFile) {
      fs.mkdirSync(path.dirname(endpointFile), { recursive: true });
      fs.writeFileSync(endpointFile, JSON.stringify({ uri, pid: process.pid, port: embedded.port, host: '127.0.0.1' }));
    }
  }
  const connectUri: string = uri;
  // Indexes are built once, by syncIndexes, after it has repaired data that would violate them;
  // mongoose's automatic build would race it and crash the process on such data.
  const connection = mongoose.createConnection(connectUri, { dbName: opts.dbName ?? 'folio', serverSelectionTimeoutMS: 10_000, autoIndex: false });
  await connection.asPromise();
  await syncIndexes(connection);
  if (embedded) inProcess.set(connection, embedded.inProcess);
  return {
    connection,
    uri: connectUri,
    embedded: Boolean(embedded),
    async close() {
      await connection.close();
      if (embedded) {
        await embedded.close();
        if (endpointFile) fs.rmSync(endpointFile, { force: true });
      }
    },
  };
}

import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import type { Test } from 'tap';
import { startEmbeddedMongo } from '../../src/index.ts';

/** A server the conformance suite talks to, through the official driver only. */
export interface Target {
  client: MongoClient;
  /** A uniquely named database, dropped after the suite. */
  db: Db;
  uri: string;
  /** Whether this is the embedded server (for the few known differences, marked todo). */
  embedded: boolean;
}

export const REAL_MONGODB_SKIP = 'MONGODB_URI is not set; set it to run this suite against real MongoDB';

async function withTarget(uri: string, embedded: boolean, body: (target: Target) => Promise<void>): Promise<void> {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`folio_conformance_${randomBytes(6).toString('hex')}`);
  try {
    await body({ client, db, uri, embedded });
  } finally {
    await db.dropDatabase().catch(() => {});
    await client.close();
  }
}

/**
 * Runs the same suite against the embedded server and, when `MONGODB_URI` is set, unchanged
 * against real MongoDB (otherwise that variant is reported as skipped, with the reason).
 */
export function forEachTarget(t: Test, suite: (t: Test, target: Target) => Promise<void>): void {
  t.test('embedded server', async (t) => {
    const server = await startEmbeddedMongo();
    try {
      await withTarget(server.uri, true, (target) => suite(t, target));
    } finally {
      await server.close();
    }
  });
  const uri = process.env.MONGODB_URI;
  t.test('real MongoDB', { skip: uri ? false : REAL_MONGODB_SKIP }, async (t) => {
    await withTarget(uri!, false, (target) => suite(t, target));
  });
}

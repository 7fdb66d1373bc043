import { calculateObjectSize, type Document } from 'bson';
import { cursorNotFound } from './errors.ts';

/** Batch size of a first batch when the client gives none (mongod's default). */
export const DEFAULT_FIRST_BATCH = 101;
/** Keep a batch well under the 16 MiB message limit. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Idle cursors are reaped after this long (mongod: 10 minutes). */
const IDLE_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Document[];
  at: number;
  touched: number;
}

/** A reply cursor section: `{ firstBatch | nextBatch, id, ns }`. */
export type CursorReply = { cursor: Document; ok: 1 };

/**
 * Server-side cursors: a query's results are computed once, the first batch is returned and the
 * rest stays here for getMore until exhausted, killed, or idle for ten minutes.
 */
export class CursorStore {
  private readonly open = new Map<bigint, OpenCursor>();
  private nextId = BigInt(Date.now()) * 1000n;
  private readonly reaper: NodeJS.Timeout;

  constructor() {
    this.reaper = setInterval(() => this.reap(), 60_000);
    this.reaper.unref();
  }

  /** Answers a find/aggregate/listX command with a first batch, opening a cursor for the rest. */
  first(ns: string, docs: Document[], batchSize: number | undefined, singleBatch = false): CursorReply {
    const batch = batchSize === 0 ? [] : takeBatch(docs, 0, batchSize ?? DEFAULT_FIRST_BATCH);
    let id = 0n;
    if (batch.length < docs.length && !singleBatch) {
      id = ++this.nextId;
      this.open.set(id, { ns, docs, at: batch.length, touched: Date.now() });
    }
    return { cursor: { firstBatch: batch, id, ns }, ok: 1 };
  }

  /** Answers getMore. */
  more(id: bigint, batchSize: number | undefined): CursorReply {
    const c = this.open.get(id);
    if (!c) throw cursorNotFound(id);
    const batch = takeBatch(c.docs, c.at, batchSize ?? Number.MAX_SAFE_INTEGER);
    c.at += batch.length;
    c.touched = Date.now();
    if (c.at >= c.docs.length) this.open.delete(id);
    return { cursor: { nextBatch: batch, id: c.at >= c.docs.length ? 0n : id, ns: c.ns }, ok: 1 };
  }

  /** Kills cursors; returns which were killed and which were unknown. */
  kill(ids: bigint[]): { killed: bigint[]; notFound: bigint[] } {
    const killed: bigint[] = [];
    const notFound: bigint[] = [];
    for (const id of ids) (this.open.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  close(): void {
    clearInterval(this.reaper);
    this.open.clear();
  }

  private reap(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [id, c] of this.open) if (c.touched < cutoff) this.open.delete(id);
  }
}

function takeBatch(docs: Document[], from: number, size: number): Document[] {
  const limit = size <= 0 ? Number.MAX_SAFE_INTEGER : size;
  const out: Document[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && out.length < limit; i++) {
    bytes += roughSize(docs[i]);
    if (out.length > 0 && bytes > MAX_BATCH_BYTES) break;
    out.push(docs[i]);
  }
  return out;
}

/**
 * The document's encoded size: counted without building anything (a JSON string of every reply
 * document, the earlier guess, cost a noticeable share of large reads).
 */
function roughSize(doc: Document): number {
  try {
    return calculateObjectSize(doc, { ignoreUndefined: true });
  } catch {
    return 0;
  }
}

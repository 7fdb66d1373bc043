import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { deserialize, serialize, type Document } from 'bson';
import type { WriteRecord } from './collection.ts';
import type { Store } from './store.ts';
import { DESERIALIZE_OPTIONS } from './wire.ts';

/** Journal size that triggers compaction into a fresh snapshot. */
const COMPACT_BYTES = 64 * 1024 * 1024;
const SNAPSHOT = 'snapshot.bson';
const journalName = (gen: number): string => `journal-${String(gen).padStart(8, '0')}.log`;

/** Frame: payload length (u32 LE), CRC-32 of the payload (u32 LE), BSON payload. */
function frame(record: Document): Buffer {
  const payload = serialize(record, { ignoreUndefined: true });
  const head = Buffer.alloc(8);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

/** Records of a file up to the first incomplete or corrupt frame (a torn tail after a crash). */
function* readFrames(buf: Buffer): Generator<Document> {
  let at = 0;
  while (at + 8 <= buf.length) {
    const length = buf.readUInt32LE(at);
    const end = at + 8 + length;
    if (end > buf.length) return;
    const payload = buf.subarray(at + 8, end);
    if (crc32(payload) !== buf.readUInt32LE(at + 4)) return;
    yield deserialize(payload, DESERIALIZE_OPTIONS);
    at = end;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The write-ahead journal of a data directory. Records are appended in memory as changes happen
 * and written + fdatasync'ed by a single flush loop, so concurrent writers share one sync (group
 * commit). `flush()` resolves when everything appended so far is on disk.
 */
export class Journal {
  private readonly dir: string;
  private readonly store: Store;
  private gen: number;
  private fh: Promise<FileHandle>;
  private size = 0;
  private buffer: Buffer[] = [];
  private appended = 0;
  private durable = 0;
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private failure: unknown;
  private compacting: Promise<void> | undefined;

  private constructor(dir: string, store: Store, gen: number, fh: Promise<FileHandle>) {
    this.dir = dir;
    this.store = store;
    this.gen = gen;
    this.fh = fh;
  }

  /**
   * Loads the snapshot and replays newer journals into `store`, then starts a new journal
   * generation and compacts everything into a fresh snapshot.
   */
  static async open(dir: string, store: Store): Promise<Journal> {
    await mkdir(dir, { recursive: true });
    let snapshotGen = 0;
    const snapshot = await readFile(path.join(dir, SNAPSHOT)).catch(() => undefined);
    if (snapshot) {
      for (const r of readFrames(snapshot)) {
        if (r.op === 'header') snapshotGen = Number(r.gen);
        else replay(store, r as WriteRecord);
      }
    }
    const gens = (await readdir(dir))
      .map((f) => /^journal-(\d+)\.log$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const g of gens.filter((g) => g >= snapshotGen)) {
      for (const r of readFrames(await readFile(path.join(dir, journalName(g))))) replay(store, r as WriteRecord);
    }
    const gen = Math.max(snapshotGen, ...gens) + 1;
    const fh = await open(path.join(dir, journalName(gen)), 'a');
    await fsyncDir(dir);
    const journal = new Journal(dir, store, gen, Promise.resolve(fh));
    await journal.writeSnapshot(gen, [...store.records()]);
    return journal;
  }

  /** Queues a record; it becomes durable with the next flush. */
  append(record: WriteRecord): void {
    const f = frame(record);
    this.buffer.push(f);
    this.size += f.length;
    this.appended++;
  }

  /** Resolves once every record appended so far is fsynced; rejects if the disk failed. */
  flush(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.durable >= this.appended) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq: this.appended, resolve, reject }));
    this.flushing ??= this.loop().finally(() => (this.flushing = undefined));
    return done;
  }

  /** Waits for pending writes and compaction, then closes the file. */
  async close(): Promise<void> {
    await this.flush().catch(() => {});
    await this.compacting;
    await (await this.fh).close();
  }

  private async loop(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = Buffer.concat(this.buffer);
      this.buffer = [];
      const upTo = this.appended;
      const target = this.fh;
      // The store now reflects exactly the records up to `upTo`: the moment to cut a snapshot.
      const cut = this.size > COMPACT_BYTES && !this.compacting ? this.startGeneration() : undefined;
      try {
        const fh = await target;
        await fh.write(batch);
        await fh.datasync();
      } catch (err) {
        this.failure = err;
        for (const w of this.waiters.splice(0)) w.reject(err);
        return;
      }
      if (cut) this.compacting = cut().finally(() => (this.compacting = undefined));
      this.durable = upTo;
      this.waiters = this.waiters.filter((w) => (w.seq <= upTo ? (w.resolve(), false) : true));
    }
  }

  /** Switches later appends to a new journal file and returns the job that writes the snapshot. */
  private startGeneration(): () => Promise<void> {
    const records = [...this.store.records()];
    const gen = ++this.gen;
    this.size = 0;
    const previous = this.fh;
    this.fh = open(path.join(this.dir, journalName(gen)), 'a');
    const next = this.fh;
    return async () => {
      await next;
      await (await previous).close();
      await fsyncDir(this.dir);
      await this.writeSnapshot(gen, records);
    };
  }

  /** Writes a snapshot (temp file, fsync, rename, fsync dir), then deletes older journals. */
  private async writeSnapshot(gen: number, records: WriteRecord[]): Promise<void> {
    const tmp = path.join(this.dir, `${SNAPSHOT}.tmp`);
    const fh = await open(tmp, 'w');
    try {
      await fh.write(frame({ op: 'header', gen }));
      let chunk: Buffer[] = [];
      let bytes = 0;
      for (const r of records) {
        const f = frame(r);
        chunk.push(f);
        bytes += f.length;
        if (bytes > 4 * 1024 * 1024) {
          await fh.write(Buffer.concat(chunk));
          chunk = [];
          bytes = 0;
        }
      }
      if (chunk.length) await fh.write(Buffer.concat(chunk));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path.join(this.dir, SNAPSHOT));
    await fsyncDir(this.dir);
    for (const f of await readdir(this.dir)) {
      const m = /^journal-(\d+)\.log$/.exec(f);
      if (m && Number(m[1]) < gen) await rm(path.join(this.dir, f), { force: true });
    }
  }
}

/** Applies a replayed record; a record that cannot apply (it never could have) is skipped. */
function replay(store: Store, r: WriteRecord): void {
  try {
    store.apply(r);
  } catch {
    // Skipping keeps every other acknowledged write; such a record only exists if the file was edited.
  }
}

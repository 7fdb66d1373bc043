import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import t from 'tap';

const script = fileURLToPath(new URL('./fixtures/server-process.ts', import.meta.url));

interface Child {
  proc: ChildProcess;
  uri: string;
  exited: Promise<number | null>;
}

function startChild(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['--import=tsx', script, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ proc, uri: m[1], exited });
    });
    void exited.then((code) => reject(new Error(`server process exited early with ${code}`)));
  });
}

t.test('durability: journal, snapshot and crash recovery', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-embedded-mongo-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));

  await t.test('should keep every acknowledged write after kill -9 mid-stream', async (t) => {
    const child = await startChild(dataDir);
    const client = await MongoClient.connect(child.uri, { serverSelectionTimeoutMS: 5000, retryWrites: false });
    const db = client.db('durable');
    await db.collection('events').createIndex({ seq: 1 }, { unique: true });
    await db.collection('counters').insertOne({ _id: 'c' as never, n: 0 });
    const acknowledged: number[] = [];
    let counterAcked = 0;
    let stop = false;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const seq = w * 1_000_000 + i;
        try {
          await db.collection('events').insertOne({ seq, payload: 'x'.repeat(200), at: new Date() });
          acknowledged.push(seq);
          if (w === 0) {
            await db.collection('counters').updateOne({ _id: 'c' as never }, { $inc: { n: 1 } });
            counterAcked++;
          }
        } catch {
          return; // the server is gone; unacknowledged writes may or may not have landed
        }
      }
    });
    while (acknowledged.length < 400) await new Promise((r) => setTimeout(r, 5));
    child.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    await child.exited;
    await client.close(true);

    // A crash can leave half a record at the end of the journal: simulate the worst case.
    const journals = (await readdir(dataDir)).filter((f) => f.startsWith('journal-')).sort();
    await appendFile(path.join(dataDir, journals[journals.length - 1]), Buffer.from([0x40, 0x00, 0x00, 0x00, 0xde, 0xad]));

    const again = await startChild(dataDir);
    const client2 = await MongoClient.connect(again.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const db2 = client2.db('durable');
      const stored = new Set((await db2.collection('events').find({}, { projection: { seq: 1 } }).toArray()).map((d) => d.seq as number));
      const lost = acknowledged.filter((seq) => !stored.has(seq));
      t.same(lost, [], 'no acknowledged insert is missing');
      const counter = await db2.collection('counters').findOne({ _id: 'c' as never });
      t.ok(counter!.n >= counterAcked && counter!.n <= counterAcked + 1, `counter ${counter!.n} holds the ${counterAcked} acknowledged increments`);
      const dup = await db2.collection('events').insertOne({ seq: acknowledged[0] }).catch((e) => e);
      t.equal(dup.code, 11000, 'the unique index survived the crash');
    } finally {
      await client2.close();
      again.proc.stdin!.write('close\n');
      t.equal(await again.exited, 0);
    }
  });

  await t.test('should restore the same data after a clean close and restart', async (t) => {
    const first = await startChild(dataDir);
    const client = await MongoClient.connect(first.uri);
    const before = await client.db('durable').collection('events').countDocuments();
    await client.db('durable').collection('notes').insertMany([{ _id: 1 as never, text: 'kept' }, { _id: 2 as never, text: 'removed' }]);
    await client.db('durable').collection('notes').deleteOne({ _id: 2 as never });
    await client.db('durable').collection('notes').updateOne({ _id: 1 as never }, { $set: { edited: true } });
    await client.db('scratch').collection('gone').insertOne({ a: 1 });
    await client.db('scratch').dropDatabase();
    await client.close();
    first.proc.stdin!.write('close\n');
    t.equal(await first.exited, 0);

    const second = await startChild(dataDir);
    const client2 = await MongoClient.connect(second.uri);
    try {
      t.same(await client2.db('durable').collection('notes').find().toArray(), [{ _id: 1, text: 'kept', edited: true }]);
      t.equal(await client2.db('durable').collection('events').countDocuments(), before);
      const names = (await client2.db('admin').admin().listDatabases()).databases.map((d) => d.name).sort();
      t.same(names, ['durable']);
    } finally {
      await client2.close();
      second.proc.stdin!.write('close\n');
      t.equal(await second.exited, 0);
    }
  });
});

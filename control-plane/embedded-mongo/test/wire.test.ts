import net from 'node:net';
import { deserialize, serialize, type Document } from 'bson';
import t from 'tap';
import { startEmbeddedMongo } from '../src/index.ts';
import { OP_MSG, OP_QUERY, OP_REPLY } from '../src/wire.ts';

/** Sends raw messages and collects whole replies. */
async function exchange(port: number, messages: Buffer[], expectReplies: number): Promise<Buffer[]> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const replies: Buffer[] = [];
  let pending = Buffer.alloc(0);
  const done = new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        replies.push(pending.subarray(0, pending.readInt32LE(0)));
        pending = pending.subarray(pending.readInt32LE(0));
      }
      if (replies.length >= expectReplies) resolve();
    });
  });
  for (const m of messages) socket.write(m);
  await done;
  socket.destroy();
  return replies;
}

function header(length: number, requestId: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opQuery(requestId: number, ns: string, query: Document): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from(`${ns}\0`), Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), serialize(query)]);
  return Buffer.concat([header(16 + body.length, requestId, OP_QUERY), body]);
}

function opMsg(requestId: number, flags: number, body: Document, sequence?: [string, Document[]]): Buffer {
  const flagBits = Buffer.alloc(4);
  flagBits.writeUInt32LE(flags, 0);
  const parts: Uint8Array[] = [flagBits, Buffer.from([0]), serialize(body)];
  if (sequence) {
    const docs = Buffer.concat(sequence[1].map((d) => serialize(d)));
    const name = Buffer.from(`${sequence[0]}\0`);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + name.length + docs.length, 0);
    parts.push(Buffer.from([1]), size, name, docs);
  }
  const payload = Buffer.concat(parts);
  return Buffer.concat([header(16 + payload.length, requestId, OP_MSG), payload]);
}

const msgBody = (reply: Buffer): Document => deserialize(reply.subarray(21));

t.test('wire protocol', async (t) => {
  const server = await startEmbeddedMongo();
  t.teardown(() => server.close());

  await t.test('should answer a legacy OP_QUERY isMaster on admin.$cmd with OP_REPLY', async (t) => {
    const [reply] = await exchange(server.port, [opQuery(7, 'admin.$cmd', { $query: { isMaster: 1 }, $readPreference: { mode: 'primary' } })], 1);
    t.same([reply.readInt32LE(8), reply.readInt32LE(12)], [7, OP_REPLY]);
    t.same([reply.readInt32LE(16), reply.readInt32LE(32)], [0, 1], 'no flags, one document');
    const doc = deserialize(reply.subarray(36));
    t.same([doc.ismaster, doc.maxWireVersion, doc.ok], [true, 21, 1]);
  });

  await t.test('should fold kind-1 document sequences into the command and honour moreToCome', async (t) => {
    const insert = opMsg(1, 0, { insert: 'seq', $db: 'wire' }, ['documents', [{ _id: 1 }, { _id: 2 }]]);
    const silent = opMsg(2, 2, { insert: 'seq', $db: 'wire', writeConcern: { w: 0 } }, ['documents', [{ _id: 3 }]]);
    const find = opMsg(3, 0, { find: 'seq', filter: {}, $db: 'wire' });
    const replies = await exchange(server.port, [insert, silent, find], 2);
    t.same(replies.map((r) => r.readInt32LE(8)), [1, 3], 'no reply to the moreToCome message');
    t.same(msgBody(replies[0]), { n: 2, ok: 1 });
    t.same(msgBody(replies[1]).cursor.firstBatch, [{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
  });

  await t.test('should answer unknown commands with CommandNotFound', async (t) => {
    const [reply] = await exchange(server.port, [opMsg(9, 0, { notACommand: 1, $db: 'admin' })], 1);
    t.same(msgBody(reply), { ok: 0, errmsg: "no such command: 'notACommand'", code: 59, codeName: 'CommandNotFound' });
  });
});

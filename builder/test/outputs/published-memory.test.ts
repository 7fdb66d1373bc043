import { createHash } from 'node:crypto';
import t from 'tap';
import { PublishedMemory } from '../../src/outputs/published-memory.ts';

t.test('published files memory', async (t) => {
  t.test("should answer only the hashes of the last build's files", async (t) => {
    const memory = new PublishedMemory();
    const a = memory.scratch(100);
    memory.remember(new Map([['ha', a]]));
    t.equal(memory.get('ha'), a);
    t.equal(memory.get('hb'), undefined);
    memory.remember(new Map([['hb', memory.scratch(100)]]));
    t.equal(memory.get('ha'), undefined, 'replaced');
  });

  t.test('should reuse the buffer of the file before the last, never the last one', async (t) => {
    const memory = new PublishedMemory();
    const first = memory.scratch(1000);
    memory.remember(new Map([['h1', first]]));
    const second = memory.scratch(1000);
    t.not(second.buffer, first.buffer, 'the remembered file is being sliced: not reused');
    memory.remember(new Map([['h2', second]]));
    const third = memory.scratch(900);
    t.equal(third.buffer, first.buffer, 'the file before the last is reused');
    t.equal(third.length, 900);
    t.not(memory.scratch(900).buffer, first.buffer, 'a reused buffer leaves the pool until remembered again');
    const grown = memory.scratch(5000);
    t.equal(grown.length, 5000, 'too small spares are not used');
  });

  t.test('should prepare a spare for each remembered file between builds, with room to grow', async (t) => {
    const memory = new PublishedMemory();
    memory.prepare();
    t.equal(memory.scratch(100).buffer.byteLength, 106, 'nothing remembered: nothing prepared, a new buffer');
    const first = Buffer.alloc(1600, 7);
    memory.remember(new Map([['h1', first], ['h2', memory.scratch(320)]]));
    memory.prepare();
    const grown = memory.scratch(1650);
    t.equal(grown.buffer.byteLength, 1700, 'prepared for the larger file: its size and a sixteenth');
    t.ok(new Uint8Array(grown.buffer).every((b) => b === 1), 'its memory written once already');
    t.equal(memory.scratch(330).buffer.byteLength, 340, 'and for the smaller one');
    t.equal(memory.scratch(330).buffer.byteLength, 330 + 20, 'then the pool is empty: a new buffer');
    memory.remember(new Map([['h3', grown]]));
    memory.prepare();
    memory.prepare();
    t.equal(memory.scratch(1700).buffer.byteLength, 1650 + 103, 'the spare left (340 bytes) is too small: one is made, once');
    t.equal(memory.scratch(1).buffer.byteLength, 340, 'the small spare is still there');
    t.equal(memory.scratch(1).buffer.byteLength, 1, 'and no other: a new one');
  });

  t.test('should reserve spares for files of given sizes, touched, unless one has room already', async (t) => {
    const memory = new PublishedMemory();
    const reserving = memory.reserve([5 << 20, 100]);
    t.equal(memory.scratch(100).buffer.byteLength, 106, 'a spare joins the pool once touched: a new buffer meanwhile');
    await reserving;
    const large = memory.scratch(5 << 20);
    t.equal(large.buffer.byteLength, (5 << 20) + (5 << 16), 'the reserved spare: its size and a sixteenth');
    t.ok(new Uint8Array(large.buffer).every((b) => b === 1), 'every byte of it written once already');
    memory.remember(new Map([['h1', large]]));
    const small = memory.scratch(90);
    t.equal(small.buffer.byteLength, 106, 'the smaller reserved spare');
    memory.remember(new Map([['h2', small]]));
    await memory.reserve([1000]);
    const next = memory.scratch(1000);
    t.equal(next.buffer, large.buffer, 'a spare with room (the file before the last): nothing new reserved');
  });

  t.test("should never reuse a buffer it did not make (Node's shared pool)", async (t) => {
    const memory = new PublishedMemory();
    const pooled = Buffer.from('small, from the pool');
    memory.remember(new Map([['h1', pooled]]));
    memory.remember(new Map([['h2', memory.scratch(8)]]));
    t.not(memory.scratch(8).buffer, pooled.buffer);
  });
  t.test('should hash a file as sha256 does, resuming from where it first differs from the one remembered at its key', async (t) => {
    const memory = new PublishedMemory();
    const mb = 1 << 20;
    const full = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    const publish = (bytes: Buffer, name: string) => {
      const file = memory.scratch(bytes.length);
      bytes.copy(file);
      const hash = memory.sha256('llms-full.txt', file);
      t.equal(hash, full(file), `${name}: the file's sha256`);
      memory.remember(new Map([[hash, file]]));
      return file;
    };
    const base = Buffer.alloc(5 * mb + 123, 'a');
    publish(base, 'first');
    const edited = Buffer.from(base);
    edited[3 * mb + 7] = 0x62;
    publish(edited, 'a byte changed after three megabytes');
    publish(edited, 'the same bytes again');
    const first = Buffer.from(edited);
    first[0] = 0x63;
    publish(first, 'the first byte changed');
    publish(Buffer.concat([first.subarray(0, 2 * mb), Buffer.from('inserted'), first.subarray(2 * mb)]), 'bytes inserted: the rest shifted');
    publish(first.subarray(0, mb), 'shorter: one whole megabyte');
    publish(first.subarray(0, mb - 1), 'shorter still');
    publish(Buffer.alloc(3 * mb, 'z'), 'another file of whole megabytes');
    const unremembered = Buffer.alloc(3 * mb, 'z');
    unremembered[2 * mb] = 0x79;
    t.equal(memory.sha256('llms-full.txt', unremembered), full(unremembered), 'a file hashed but not remembered since');
    const other = Buffer.alloc(3 * mb, 'z');
    other[2 * mb + 1] = 0x79;
    t.equal(memory.sha256('llms-full.txt', other), full(other), 'after a file not remembered: hashed whole');
    const same = memory.get(full(Buffer.alloc(3 * mb, 'z')))!;
    t.equal(memory.sha256('fr/llms-full.txt', same), full(same), 'another key: hashed whole');
  });

  t.test('should take a file read back from the store when it has the sha256 recorded, and resume the next hash from it', async (t) => {
    const mb = 1 << 20;
    const full = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    const published = Buffer.alloc(4 * mb + 5, 'p');
    const memory = new PublishedMemory();
    t.notOk(memory.adopt('llms-full.txt', published, full(Buffer.from('other'))), 'another sha256 recorded: refused');
    t.equal(memory.get(full(published)), undefined, 'and not remembered');
    t.ok(memory.adopt('llms-full.txt', published, full(published)), 'the sha256 recorded: taken');
    t.equal(memory.get(full(published)), published, 'and remembered, to slice');
    const next = memory.scratch(published.length + 3);
    published.copy(next, 0, 0, 3 * mb);
    next.write('new', 3 * mb);
    published.copy(next, 3 * mb + 3, 3 * mb);
    const compared: number[] = [];
    const compare = Buffer.compare;
    Buffer.compare = (a: Uint8Array, b: Uint8Array) => { compared.push(a.byteLength); return compare(a, b); };
    try {
      t.equal(memory.sha256('llms-full.txt', next), full(next), "the next file's sha256");
    } finally {
      Buffer.compare = compare;
    }
    t.same(compared, [mb, mb, mb, mb], 'resumed from the read-back file: the three megabytes before the change compared, not hashed');
  });
});

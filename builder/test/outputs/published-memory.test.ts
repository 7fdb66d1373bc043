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

  t.test("should never reuse a buffer it did not make (Node's shared pool)", async (t) => {
    const memory = new PublishedMemory();
    const pooled = Buffer.from('small, from the pool');
    memory.remember(new Map([['h1', pooled]]));
    memory.remember(new Map([['h2', memory.scratch(8)]]));
    t.not(memory.scratch(8).buffer, pooled.buffer);
  });
});

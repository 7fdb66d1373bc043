import { gzipSync } from 'node:zlib';
import t from 'tap';
import { decodeJson, encodeJson } from '../../src/cache/gzip-json.ts';

t.test('gzipped JSON', async (t) => {
  t.test('should read back what it wrote, whatever its size', async (t) => {
    for (const n of [0, 10, 5_000, 200_000]) {
      const value = { n, items: Array.from({ length: n }, (_, i) => ({ path: `docs/page-${i}.mdx`, hash: String(i * 7919) })) };
      t.same(await decodeJson(await encodeJson(value)), value, `${n} entries`);
    }
  });

  t.test('should read a stream whose trailer records another size as not gzip (undefined), not fail', async (t) => {
    const bytes = gzipSync(Buffer.from(JSON.stringify({ a: 'x'.repeat(50_000) })));
    const wrong = Buffer.from(bytes);
    wrong.writeUInt32LE(0xffffffff, wrong.length - 4);
    t.equal(await decodeJson(wrong), undefined, 'a size past the largest chunk');
    wrong.writeUInt32LE(3, wrong.length - 4);
    t.equal(await decodeJson(wrong), undefined, 'a size smaller than the smallest chunk');
    t.same(await decodeJson(bytes), { a: 'x'.repeat(50_000) }, 'the stream itself');
  });

  t.test('should answer undefined for bytes that are not gzipped JSON', async (t) => {
    t.equal(await decodeJson(undefined), undefined);
    t.equal(await decodeJson(Buffer.from('{}')), undefined, 'plain JSON');
    t.equal(await decodeJson(Buffer.alloc(3)), undefined, 'shorter than a gzip header');
    t.equal(await decodeJson(gzipSync('not json')), undefined, 'gzipped text');
    t.equal(await decodeJson(gzipSync('{"a":1}'), () => false), undefined, 'refused by accept');
  });
});

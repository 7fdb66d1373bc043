import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DEFAULT_LIMITS } from '../src/limits/build-limits.ts';
import { createPublisher } from '../src/publish.ts';
import { createLocalDirStore } from '../src/store/local-dir-store.ts';
import type { ObjectStore } from '../src/store/object-store.ts';

/** A local directory store that counts uploads in flight and can fail one key. */
function countingStore(root: string, failKey?: string) {
  const inner = createLocalDirStore(root);
  const stats = { inFlight: 0, max: 0 };
  const store: ObjectStore = {
    ...inner,
    async put(key, bytes, opts) {
      stats.max = Math.max(stats.max, ++stats.inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (key === failKey) throw new Error(`disk full writing ${key}`);
        await inner.put(key, bytes, opts);
      } finally {
        stats.inFlight--;
      }
    },
  };
  return { store, stats };
}

t.test('createPublisher', async (t) => {
  t.test('should bound uploads in flight while several emitters publish side by side', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const { store, stats } = countingStore(root);
    const publisher = createPublisher(store, {}, DEFAULT_LIMITS);
    await Promise.all(['shells', 'exports', 'search'].map(async (kind) => {
      for (let i = 0; i < 200; i++) await publisher.emit(`${kind}/${i}.html`, `<p>${kind} ${i}</p>`);
    }));
    const result = await publisher.finish();
    t.equal(result.uploaded, 600);
    t.ok(stats.max <= 32 && stats.max >= 2, `at most 32 in flight (saw ${stats.max})`);
    t.equal(fs.readFileSync(path.join(root, 'search/199.html'), 'utf8'), '<p>search 199</p>');
  });

  t.test('should report a failed upload and delete nothing', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    fs.writeFileSync(path.join(root, 'old.html'), 'old');
    const { store } = countingStore(root, 'b.html');
    const publisher = createPublisher(store, { 'old.html': { hash: 'x', size: 3 } }, DEFAULT_LIMITS);
    await publisher.emit('a.html', 'a');
    await publisher.emit('b.html', 'b');
    await t.rejects(publisher.finish(), { message: 'disk full writing b.html' });
    t.equal(fs.readFileSync(path.join(root, 'old.html'), 'utf8'), 'old', 'the removed object stays until a publish succeeds');
  });

  t.test('should tell what the manifest lists once sealed, before the uploads end, and take nothing more', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const inner = createLocalDirStore(root);
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const store: ObjectStore = { ...inner, put: async (key, bytes, opts) => { await held; await inner.put(key, bytes, opts); } };
    fs.writeFileSync(path.join(root, 'gone.html'), 'gone');
    const publisher = createPublisher(store, { 'kept.html': { hash: 'k', size: 1 }, 'gone.html': { hash: 'g', size: 4 } }, DEFAULT_LIMITS);
    t.ok(publisher.keep('kept.html'));
    await publisher.emit('new.html', 'new');
    const sealed = publisher.seal();
    t.same(Object.keys(sealed.objects).sort(), ['kept.html', 'new.html'], 'the objects, while new.html is still uploading');
    t.same([...sealed.changed].sort(), ['gone.html', 'new.html']);
    t.notOk(fs.existsSync(path.join(root, 'new.html')), 'not uploaded yet');
    await t.rejects(publisher.emit('late.html', 'late'), /after the publish was sealed/);
    t.throws(() => publisher.keep('kept.html'), /after the publish was sealed/);
    const finishing = publisher.finish();
    release();
    const stats = await finishing;
    t.equal(stats.objects, sealed.objects);
    t.same({ uploaded: stats.uploaded, deleted: stats.deleted }, { uploaded: 1, deleted: 1 });
    t.equal(fs.readFileSync(path.join(root, 'new.html'), 'utf8'), 'new');
    t.notOk(fs.existsSync(path.join(root, 'gone.html')), 'removed once the uploads are up');
  });

  t.test('should report as changed exactly the keys whose entry is not the previous one, and keep the previous entries', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const { store } = countingStore(root);
    const same = await (async () => {
      const first = createPublisher(store, {}, DEFAULT_LIMITS);
      for (const key of ['kept.html', 'same.html', 'edited.html', 'gone.html']) await first.emit(key, key);
      return Object.freeze((await first.finish()).objects);
    })();
    const publisher = createPublisher(store, same, DEFAULT_LIMITS);
    t.ok(publisher.keep('kept.html'));
    await publisher.emit('same.html', 'same.html');
    await publisher.emit('edited.html', 'new bytes');
    await publisher.emit('new.html', 'new');
    const stats = await publisher.finish();
    t.same(stats.changed.sort(), ['edited.html', 'gone.html', 'new.html']);
    t.equal(stats.objects['kept.html'], same['kept.html'], 'a kept entry is the previous one');
    t.equal(stats.objects['same.html'], same['same.html'], 'so is one emitted with the same bytes');

    // The next publisher starts from that map (as a kept builder reads back the manifest it wrote).
    const next = Object.freeze(stats.objects);
    const again = createPublisher(store, next, DEFAULT_LIMITS);
    for (const key of ['kept.html', 'same.html', 'kept.html']) t.ok(again.keep(key), `${key} kept`);
    await again.emit('edited.html', 'new bytes');
    t.same((await again.finish()).changed, ['new.html'], 'one key neither kept nor emitted, though another was kept twice');
    const all = createPublisher(store, next, DEFAULT_LIMITS);
    for (const key of Object.keys(next)) t.ok(all.keep(key));
    t.same(await all.finish().then((r) => [r.changed, r.deleted]), [[], 0], 'everything kept: nothing removed');
  });

  t.test('should treat keys named like Object\'s own properties as any other file', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const { store } = countingStore(root);
    const publisher = createPublisher(store, {}, DEFAULT_LIMITS);
    for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
      t.notOk(publisher.has(key), `${key}: not published yet`);
      t.notOk(publisher.keep(key), `${key}: nothing to keep before a first publish`);
      await publisher.emit(key, `file ${key}`);
      t.ok(publisher.has(key));
    }
    const stats = await publisher.finish();
    t.equal(stats.uploaded, 3);
    t.same(stats.changed.sort(), ['constructor', 'hasOwnProperty', 'toString']);
    t.equal(fs.readFileSync(path.join(root, 'constructor'), 'utf8'), 'file constructor');
    const next = createPublisher(store, stats.objects, DEFAULT_LIMITS);
    t.ok(next.keep('constructor'));
    const after = await next.finish();
    t.same(after.changed.sort(), ['hasOwnProperty', 'toString'], 'the files not kept are deleted');
  });

  t.test('should compare large texts by their bytes, whether the same string or a copy, and upload a changed one', async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const { store } = countingStore(root);
    const text = `${'é'.repeat(40_000)}\n${'line of a site-wide file\n'.repeat(4_000)}`;
    const first = createPublisher(store, {}, DEFAULT_LIMITS);
    await first.emit('llms.txt', text);
    const published = (await first.finish()).objects;
    t.same(published['llms.txt'], { hash: createHash('sha256').update(Buffer.from(text)).digest('hex'), size: Buffer.byteLength(text) }, 'the hash and size of its UTF-8 bytes');
    for (const [label, again] of [['the same string', text], ['a copy', (' ' + text).slice(1)]] as const) {
      const next = createPublisher(store, published, DEFAULT_LIMITS);
      await next.emit('llms.txt', again);
      const stats = await next.finish();
      t.equal(stats.uploaded, 0, `${label}: not uploaded`);
      t.equal(stats.objects['llms.txt'], published['llms.txt'], `${label}: the previous entry`);
    }
    const edited = createPublisher(store, published, DEFAULT_LIMITS);
    await edited.emit('llms.txt', `${text}one more line\n`);
    t.equal((await edited.finish()).uploaded, 1);
    t.equal(fs.readFileSync(path.join(root, 'llms.txt'), 'utf8'), `${text}one more line\n`);
  });
});

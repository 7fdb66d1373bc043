import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { bucketCount, readBucketedMap, sameJson, unreferenced, writeBucketedMap } from '../../src/cache/bucketed-map.ts';
import { manifestFiles, manifestPage, MANIFEST_KEY, readManifest, writeManifest, type BuildManifest, type ManifestPage } from '../../src/state/manifest.ts';
import { tempDir } from '../helpers/git-repo.ts';
import { recordingStore } from '../helpers/recording-store.ts';

const entries = (n: number, edit?: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [
  `docs/section-${i % 7}/page-${i}.mdx`, { cacheKey: `k${i}${i === edit ? '-edited' : ''}`, urlPath: `/section-${i % 7}/page-${i}` },
]));

const manifest = (pages: number, edit?: number): BuildManifest => ({
  version: 1, commit: 'c', configHash: 'h', compilerVersion: 'c1', templateVersion: 't1',
  files: Object.fromEntries(Object.keys(entries(pages)).map((p, i) => [p, i === edit ? 'blob-edited' : `blob${i}`])),
  pages: Object.fromEntries(Object.entries(entries(pages, edit)).map(([p, v]) => [p, { blob: 'b', ...v }])),
  inputs: { 'index.html': 'i' }, objects: { 'index.html': { hash: 'x', size: 1 } }, llmsBytes: { 'llms-full.txt': [['ck', 0, 5]] },
});

t.test('bucketed builder state', async (t) => {
  t.test('should spread a growing map over more buckets, 64 KB of JSON each at most', async (t) => {
    const kb = 1024;
    t.same([0, 1, 64 * kb, 64 * kb + 1, 256 * kb, 256 * kb + 1, 2000 * kb].map(bucketCount), [1, 1, 1, 2, 4, 8, 32]);
    t.equal(bucketCount(1e12), 1024, 'bounded');
  });

  t.test('should size buckets by bytes, and keep the count of a map that hovers at a threshold', async (t) => {
    const { store } = recordingStore(tempDir());
    // Entries of about 1 KB of JSON each.
    const sized = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`docs/p-${i}.mdx`, { text: 'x'.repeat(1000) }]));
    t.equal((await writeBucketedMap(store, 'big/', sized(100))).length, 2, '100 KB: two buckets');
    t.equal((await writeBucketedMap(store, 'big/', sized(140))).length, 4, '140 KB alone: four');
    const two = await writeBucketedMap(store, 'big/', sized(120));
    t.equal((await writeBucketedMap(store, 'big/', sized(140), two)).length, 2, '140 KB after two buckets: still two');
    t.equal((await writeBucketedMap(store, 'big/', sized(40), two)).length, 2, '40 KB after two buckets: still two');
    t.equal((await writeBucketedMap(store, 'big/', sized(300), two)).length, 8, 'past twice the bucket size: counted again');
    t.equal((await writeBucketedMap(store, 'big/', sized(20), two)).length, 1, 'under a quarter: counted again');
    t.equal((await writeBucketedMap(store, 'big/', {}, two)).length, 1, 'empty: one bucket');
  });

  t.test('should read back what it wrote, in one record', async (t) => {
    const { store } = recordingStore(tempDir());
    const map = entries(2000);
    const stored = await writeBucketedMap(store, 'state/', map);
    t.equal(stored.length, 4);
    t.ok(stored.every((k) => /^state\/[0-9a-f]{32}\.json\.gz$/.test(k)), 'keys name their content');
    t.same(await readBucketedMap(store, stored), map);
  });

  t.test('should rewrite only the bucket holding a changed entry, and list the one it replaces', async (t) => {
    const { store, puts } = recordingStore(tempDir());
    const before = await writeBucketedMap(store, 'state/', entries(2000));
    puts.length = 0;
    const after = await writeBucketedMap(store, 'state/', entries(2000, 1234), before);
    t.equal(puts.length, 1, 'one bucket written');
    t.equal(after.filter((k, i) => k !== before[i]).length, 1, 'the others are listed unchanged');
    t.same(unreferenced(before, [after]), puts.map((k) => before[after.indexOf(k)]), 'the replaced bucket is the one to delete');
    puts.length = 0;
    t.same(await writeBucketedMap(store, 'state/', entries(2000, 1234), after), after, 'nothing changed: the same listing');
    t.equal(puts.length, 0, 'and nothing written');
  });

  t.test('should follow a kept map through changes, additions and removals, as the store holds it', async (t) => {
    const { store, puts, gets } = recordingStore(tempDir());
    const stored = async (listing: string[]) => Object.assign({}, ...await Promise.all(listing.map(async (key) => JSON.parse(gunzipSync((await store.get(key))!).toString('utf8')))));
    let map: Record<string, unknown> = entries(3000);
    let listing = await writeBucketedMap(store, 'kept/', map);
    const steps: Array<[string, (m: Record<string, unknown>) => void, number]> = [
      ['one entry changed', (m) => { m['docs/section-5/page-5.mdx'] = { cacheKey: 'k5-edited' }; }, 1],
      ['one entry added', (m) => { m['docs/new/page.mdx'] = { cacheKey: 'new' }; }, 1],
      ['one entry removed', (m) => { delete m['docs/section-1/page-8.mdx']; }, 1],
      ['added, removed and changed at once', (m) => { m['docs/a.mdx'] = 1; delete m['docs/new/page.mdx']; m['docs/section-2/page-9.mdx'] = [1, 2]; }, 3],
      ['an equal copy of every entry', (m) => { for (const k of Object.keys(m)) m[k] = structuredClone(m[k]); }, 0],
    ];
    for (const [name, change, most] of steps) {
      const next = { ...map };
      change(next);
      puts.length = 0;
      gets.length = 0;
      const after = await writeBucketedMap(store, 'kept/', next, listing);
      t.ok(puts.length <= most, `${name}: ${puts.length} bucket(s) written`);
      t.equal(after.filter((k, i) => k !== listing[i]).length, puts.length, `${name}: the other buckets listed as they were`);
      t.same(await stored(after), next, `${name}: the store holds the map`);
      gets.length = 0;
      t.equal(await readBucketedMap(store, after), next, `${name}: read back as the map written, without the store`);
      t.same(gets, []);
      map = next;
      listing = after;
    }
    t.ok(Object.isFrozen(map), 'a map written is frozen: the next build reads it');
  });

  t.test('should write with the changed keys reported the buckets a full comparison writes, leaving the previous map as it was', async (t) => {
    const reported = recordingStore(tempDir());
    const compared = recordingStore(tempDir());
    let map: Readonly<Record<string, unknown>> = entries(3000);
    let listing = await writeBucketedMap(reported.store, 'same/', map);
    t.same(await writeBucketedMap(compared.store, 'same/', map), listing);
    // Each step: the change, and the keys reported (a removal or addition left out must be found all the same).
    const steps: Array<[string, (m: Record<string, unknown>) => void, string[]]> = [
      ['one entry changed', (m) => { m['docs/section-5/page-5.mdx'] = { cacheKey: 'k5-edited' }; }, ['docs/section-5/page-5.mdx']],
      ['a key reported, its entry equal', (m) => { m['docs/section-6/page-6.mdx'] = structuredClone(m['docs/section-6/page-6.mdx']); }, ['docs/section-6/page-6.mdx']],
      ['added and removed, reported', (m) => { m['docs/new/page.mdx'] = { cacheKey: 'new' }; delete m['docs/section-1/page-8.mdx']; }, ['docs/new/page.mdx', 'docs/section-1/page-8.mdx']],
      ['an addition not reported', (m) => { m['docs/other.mdx'] = 1; m['docs/section-2/page-9.mdx'] = [1, 2]; }, ['docs/section-2/page-9.mdx']],
      ['a removal not reported', (m) => { delete m['docs/section-3/page-10.mdx']; }, []],
      ['a removed key reported twice, absent before and after', (m) => { delete m['docs/other.mdx']; }, ['docs/other.mdx', 'docs/other.mdx', 'docs/never.mdx']],
    ];
    for (const [name, change, keys] of steps) {
      const next = { ...map };
      change(next);
      const copy = structuredClone(map);
      reported.puts.length = 0;
      compared.puts.length = 0;
      const after = await writeBucketedMap(reported.store, 'same/', next, listing, keys);
      t.same(after, await writeBucketedMap(compared.store, 'same/', next, listing), `${name}: the same listing`);
      t.same([...reported.puts].sort(), [...compared.puts].sort(), `${name}: the same buckets written`);
      t.same(await readBucketedMap(reported.store, after), next, `${name}: the map written`);
      t.same(map, copy, `${name}: the previous map unchanged`);
      map = next;
      listing = after;
    }
  });

  t.test('should write again a bucket that was deleted, when its entries come back', async (t) => {
    const { store } = recordingStore(tempDir());
    const a = await writeBucketedMap(store, 'back/', entries(100));
    const b = await writeBucketedMap(store, 'back/', entries(100, 5), a);
    await store.delete(unreferenced(a, [b]));
    const again = await writeBucketedMap(store, 'back/', entries(100), b);
    t.same(again, a);
    for (const key of again) t.ok(await store.get(key), `${key} is in the store`);
  });

  t.test('should give equal maps equal buckets, whatever the order of their keys', async (t) => {
    const { store } = recordingStore(tempDir());
    const map = entries(600);
    const reversed = Object.fromEntries(Object.entries(map).reverse());
    t.same(await writeBucketedMap(store, 'a/', map), (await writeBucketedMap(store, 'a/', reversed)));
  });

  t.test('should read nothing when a bucket is lost, unreadable or not what its key names', async (t) => {
    const { store } = recordingStore(tempDir());
    const stored = await writeBucketedMap(store, 'lost/', entries(1500));
    // This process remembers what it wrote: a bucket it never saw must be read from the store.
    const foreign = 'lost/00000000000000000000000000000000.json.gz';
    t.equal(await readBucketedMap(store, [...stored.slice(1), foreign]), undefined, 'missing');
    await store.put(foreign, Buffer.from('not gzip'));
    t.equal(await readBucketedMap(store, [foreign]), undefined, 'not gzip');
    await store.put(foreign, gzipSync('[1,2]'));
    t.equal(await readBucketedMap(store, [foreign]), undefined, 'not an object');
    await store.put(foreign, gzipSync('{"docs/a.mdx":{"cacheKey":"x"}}'));
    t.equal(await readBucketedMap(store, [foreign]), undefined, 'not the bytes its key names');
  });

  t.test('should hand out frozen maps and entries, so one build cannot change what the next reads', async (t) => {
    const { store } = recordingStore(tempDir());
    // A bucket this process never wrote, read from the store.
    const json = '{"docs/a.mdx":{"cacheKey":"x"}}';
    const key = `frozen/${createHash('sha256').update(json).digest('hex').slice(0, 32)}.json.gz`;
    await store.put(key, gzipSync(json));
    const read = (await readBucketedMap<{ cacheKey: string }>(store, [key]))!;
    t.same(read, { 'docs/a.mdx': { cacheKey: 'x' } });
    t.throws(() => { read['docs/a.mdx'].cacheKey = 'changed'; }, TypeError, 'entries read are frozen');
    t.throws(() => { read['new/page.mdx'] = { cacheKey: 'x' }; }, TypeError, 'the merged record is shared, and frozen');
    const written = entries(10);
    t.equal(await readBucketedMap(store, await writeBucketedMap(store, 'frozen/', written)), written, 'a map written is read back as it is');
    t.throws(() => { written['new/page.mdx'] = { cacheKey: 'x', urlPath: '/x' }; }, TypeError, 'and frozen');
  });

  t.test('should compare JSON values deeply, as their serialisations would, key order aside', async (t) => {
    t.ok(sameJson({ a: [1, { b: 'c' }], d: undefined }, { a: [1, { b: 'c' }] }));
    t.notOk(sameJson({ a: [1, 2] }, { a: [1, 2, 3] }));
    t.ok(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), 'key order aside');
    t.notOk(sameJson({ a: 1 }, { a: 1, b: 2 }));
    t.notOk(sameJson({ a: 1, c: 3 }, { a: 1, b: 3 }));
    t.notOk(sameJson([], {}));
    t.notOk(sameJson(null, {}));
  });

  t.test('should store the manifest\'s large maps in buckets and rewrite only what an edit changed', async (t) => {
    const { store, puts, deletes, gets } = recordingStore(tempDir());
    await writeManifest(store, manifest(1200));
    const first = (await readManifest(store))!;
    t.same({ ...first, stored: undefined }, { ...manifest(1200), stored: undefined });
    puts.length = 0;
    gets.length = 0;
    await writeManifest(store, manifest(1200, 17), first);
    // `files` and `pages` each change in one bucket; `inputs` and `objects` not at all.
    t.equal(puts.filter((k) => k.startsWith('_folio/cache/manifest/')).length, 2);
    t.same(puts.filter((k) => !k.startsWith('_folio/cache/manifest/')), [MANIFEST_KEY]);
    t.equal(deletes.length, 2, 'the two replaced buckets are deleted after the manifest is written');
    const second = (await readManifest(store))!;
    t.same(gets, [MANIFEST_KEY], 'buckets this process wrote are not read back');
    t.same({ ...second, stored: undefined }, { ...manifest(1200, 17), stored: undefined });
  });

  t.test('should write the manifest\'s buckets while the site uploads, and the manifest only once they are up', async (t) => {
    const { store, puts, deletes } = recordingStore(tempDir());
    await writeManifest(store, manifest(1200));
    const first = (await readManifest(store))!;
    puts.length = 0;
    let up!: () => void;
    const uploads = new Promise<void>((resolve) => { up = resolve; });
    const writing = writeManifest(store, manifest(1200, 17), first, { ready: uploads });
    for (let i = 0; i < 50 && puts.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    t.equal(puts.filter((k) => k.startsWith('_folio/cache/manifest/')).length, 2, 'the changed buckets, before the uploads end');
    t.notOk(puts.includes(MANIFEST_KEY), 'not the manifest');
    up();
    await writing;
    t.equal(puts.at(-1), MANIFEST_KEY);
    t.equal(deletes.length, 2);

    puts.length = 0;
    deletes.length = 0;
    const failed = Promise.reject(new Error('upload failed'));
    failed.catch(() => undefined); // rejected before the write awaits it, as a build's uploads may be
    await t.rejects(writeManifest(store, manifest(1200, 18), (await readManifest(store))!, { ready: failed }), { message: 'upload failed' });
    t.notOk(puts.includes(MANIFEST_KEY), 'a publish whose uploads failed leaves the manifest as it was');
    t.equal(deletes.length, 0, 'and its buckets');
    t.same({ ...(await readManifest(store))!, stored: undefined }, { ...manifest(1200, 17), stored: undefined });
  });

  t.test('should take fields known later (the summaries\' hash) into the manifest, and write none when they fail', async (t) => {
    const { store, puts } = recordingStore(tempDir());
    await writeManifest(store, manifest(30));
    const first = (await readManifest(store))!;
    puts.length = 0;
    let known!: (fields: { summariesHash: string }) => void;
    const writing = writeManifest(store, manifest(30, 4), first, { fields: new Promise((resolve) => { known = resolve; }) });
    for (let i = 0; i < 50 && puts.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    t.ok(puts.length > 0 && puts.every((k) => k.startsWith('_folio/cache/manifest/')), 'the changed bucket written meanwhile');
    t.notOk(puts.includes(MANIFEST_KEY), 'not the manifest');
    known({ summariesHash: 'h2' });
    await writing;
    t.equal((await readManifest(store))!.summariesHash, 'h2');
    puts.length = 0;
    const failed = Promise.reject(new Error('summaries not written'));
    failed.catch(() => undefined);
    await t.rejects(writeManifest(store, manifest(30, 5), (await readManifest(store))!, { fields: failed }), { message: 'summaries not written' });
    t.notOk(puts.includes(MANIFEST_KEY), 'the manifest as it was');
    t.same((await readManifest(store))!.pages, { ...manifest(30, 4).pages });
  });

  t.test('should keep a page\'s previous manifest entry when it records the same, and make a new one otherwise', async (t) => {
    const before = Object.freeze<ManifestPage>({ blob: 'b', cacheKey: 'k', urlPath: '/a', deps: { 'snippets/s.mdx': 'd' } });
    const facts = { blob: 'b', cacheKey: 'k', urlPath: '/a', deps: { 'snippets/s.mdx': 'd' } };
    t.equal(manifestPage(before, facts), before, 'the same: the previous entry itself');
    const changes: Array<[string, ManifestPage]> = [
      ['blob', { ...facts, blob: 'c' }],
      ['import', { ...facts, deps: { 'snippets/s.mdx': 'e' } }],
      ['no imports', { ...facts, deps: undefined }],
      ['version', { ...facts, version: 'v2' }],
      ['failed', { ...facts, failed: true }],
    ];
    for (const [name, page] of changes) {
      const entry = manifestPage(before, page);
      t.not(entry, before, `${name}: a new entry`);
      t.same(entry, JSON.parse(JSON.stringify(page)), `${name}: holding what it was given`);
    }
    t.not(manifestPage({ ...before, extra: 1 } as unknown as ManifestPage, facts), before, 'a field the build no longer writes: a new entry');
    const listed = { ...before, outputs: ['a/index.html', 'a.md', 'a/rss.xml'] } as unknown as ManifestPage;
    t.same(manifestPage(listed, facts), before, 'an entry that lists its outputs (written before they were left out): a new entry without them');
    t.not(manifestPage(listed, facts), listed);
    t.same(Object.keys(manifestPage(undefined, { ...facts, failed: true, version: 'v2' })), ['blob', 'cacheKey', 'urlPath', 'version', 'deps', 'failed'], 'fields in the order they are stored');
  });

  t.test('should report the repository paths whose blob changed, and keep the previous files when none did', async (t) => {
    const previous = Object.freeze({ 'docs/a.mdx': '1', 'docs/b.mdx': '2', 'docs/constructor.mdx': '3' });
    const same = manifestFiles(new Map(Object.entries(previous)), previous);
    t.equal(same.files, previous, 'the same blobs: the previous record itself');
    t.same(same.changed, []);
    const next = manifestFiles(new Map([['docs/a.mdx', '1'], ['docs/b.mdx', '9'], ['__proto__', '4'], ['docs/new.mdx', '5']]), previous);
    t.same(next.changed.sort(), ['__proto__', 'docs/b.mdx', 'docs/constructor.mdx', 'docs/new.mdx'], 'changed, added (any name) and removed');
    t.ok(Object.hasOwn(next.files, '__proto__') && !Object.hasOwn(next.files, 'docs/constructor.mdx'));
    t.same(previous, { 'docs/a.mdx': '1', 'docs/b.mdx': '2', 'docs/constructor.mdx': '3' }, 'the previous record unchanged');
    t.same(manifestFiles(new Map([['a', '1']]), undefined), { files: { a: '1' }, changed: [] }, 'a first build compares nothing');
  });

  t.test('should still read a manifest with its maps inline, and none whose bucket is lost', async (t) => {
    const { store } = recordingStore(tempDir());
    await store.put(MANIFEST_KEY, gzipSync(JSON.stringify(manifest(3))));
    t.same(await readManifest(store), manifest(3));
    await writeManifest(store, manifest(3), (await readManifest(store))!);
    t.same({ ...(await readManifest(store))!, stored: undefined }, { ...manifest(3), stored: undefined }, 'written again in buckets');
    const root = JSON.parse(gunzipSync((await store.get(MANIFEST_KEY))!).toString());
    root.pages = ['_folio/cache/manifest/ffffffffffffffffffffffffffffffff.json.gz'];
    await store.put(MANIFEST_KEY, gzipSync(JSON.stringify(root)));
    t.equal(await readManifest(store), undefined);
  });
});

/**
 * The state's index of pages' access keys by blob (access-index.ts): a build stores it, a later
 * one takes a page's keys from it without reading the page, and it follows the repository's pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { ACCESS_INDEX_KEY, AccessIndex } from '../../src/access/access-index.ts';
import { encodeJson, decodeJson } from '../../src/cache/gzip-json.ts';
import { gitBlobId } from '../../src/git/blob-id.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

type Stored = { v: 1; keys: Record<string, { groups?: string[]; public?: boolean }> };

function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

t.test('an index round-trips, prunes to the commit\'s pages and survives bad bytes', async (t) => {
  const store = createLocalDirStore(tempDir());
  const first = await AccessIndex.load(store);
  t.equal(first.get('a'.repeat(40)), undefined, 'empty without a stored index');
  first.set('a'.repeat(40), {});
  first.set('b'.repeat(40), { groups: ['staff'] });
  await first.save(store, new Set(['a'.repeat(40), 'b'.repeat(40)]));
  const second = await AccessIndex.load(store);
  t.same(second.get('b'.repeat(40)), { groups: ['staff'] });
  await second.save(store, new Set(['b'.repeat(40)]));
  const stored = await decodeJson<Stored>(await store.get(ACCESS_INDEX_KEY));
  t.same(Object.keys(stored!.keys), ['b'.repeat(40)], 'a page the commit no longer has is dropped');
  await store.put(ACCESS_INDEX_KEY, Buffer.from('not gzip'));
  t.equal((await AccessIndex.load(store)).get('b'.repeat(40)), undefined, 'unreadable: pages are read again');
});

t.test('a build stores the index and a later build takes keys from it without reading the page', async (t) => {
  const dir = tempDir();
  const out = tempDir();
  const store = createLocalDirStore(out);
  write(dir, {
    'docs.json': JSON.stringify({ name: 'Index', theme: 'mint', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] } }),
    'docs/index.mdx': '---\ntitle: Welcome\n---\n\nHello.\n',
    'docs/guide.mdx': '---\ntitle: Guide\ngroups: [staff]\n---\n\nStaff only.\n',
  });
  await build({ source: { kind: 'dir', dir }, store, siteUrl: 'https://docs.example' });
  const stored = await decodeJson<Stored>(await store.get(ACCESS_INDEX_KEY));
  const blob = (file: string) => gitBlobId(fs.readFileSync(path.join(dir, file)));
  t.same(stored?.keys[blob('docs/guide.mdx')], { groups: ['staff'] }, 'the gated page\'s keys');
  t.same(stored?.keys[blob('docs/index.mdx')], {}, 'a page without keys is recorded too');

  // A new page this process never read, whose index entry (as an earlier build would have stored
  // it) says it is for a group: the build follows the index, so it was not read.
  const secret = '---\ntitle: Fresh\n---\n\nFRESHMARK\n';
  write(dir, { 'docs/fresh.mdx': secret, 'docs.json': JSON.stringify({ name: 'Index', theme: 'mint', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide', 'fresh'] }] } }) });
  stored!.keys[gitBlobId(Buffer.from(secret))] = { groups: ['partners'] };
  await store.put(ACCESS_INDEX_KEY, await encodeJson(stored));
  await build({ source: { kind: 'dir', dir }, store, siteUrl: 'https://docs.example' });
  t.notOk(fs.existsSync(path.join(out, 'fresh/index.html')), 'the page the index gates is not in the public site');
  t.ok(fs.existsSync(path.join(out, 'index.html')));
});

t.test('what a build stores does not depend on what its process read before', async (t) => {
  const dir = tempDir();
  write(dir, {
    'docs.json': JSON.stringify({ name: 'Twice', theme: 'mint', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
    'docs/index.mdx': '---\ntitle: Twice\n---\n\nThe same page for two sites.\n',
  });
  const first = tempDir();
  const second = tempDir();
  await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(first), siteUrl: 'https://docs.example' });
  // The second site's build finds the page in this process's memory: its index is stored all the same.
  await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(second), siteUrl: 'https://docs.example' });
  t.same(fs.readFileSync(path.join(second, ACCESS_INDEX_KEY)), fs.readFileSync(path.join(first, ACCESS_INDEX_KEY)));
});

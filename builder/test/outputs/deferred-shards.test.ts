import t from 'tap';
import { DeferredShards } from '../../src/outputs/deferred-shards.ts';
import { buildPagefindShard, closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { Spool } from '../../src/state/spool.ts';
import type { CompiledPage } from '../../src/types.ts';

const page = (i: number): CompiledPage => ({
  sourcePath: `docs/guides/page-${i}.mdx`, urlPath: `/guides/page-${i}`, title: `Guide ${i}`, frontmatter: {},
  bodyHtml: `<h2 id="usage">Usage</h2><p>Widget number ${i} spins, café ${'ünïcode '.repeat(i)}.</p>`, markdown: `# Guide ${i}\n`, toc: [], updates: [], rss: false, searchText: `Widget number ${i} spins.`,
});
const pages = Array.from({ length: 5 }, (_, i) => page(i));

t.teardown(closePagefind);

/** `promise`, and whether it has settled (read after other work was awaited). */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => (settled = true));
  tracked.catch(() => undefined);
  return { promise: tracked, settled: () => settled };
}

const bytesOf = (files: Map<string, Buffer>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, bytes]) => [name, bytes.toString('base64')]);

t.test('DeferredShards', async (t) => {
  t.test('should keep the documents on disk and index nothing until released, then write the bundle indexing at once writes', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    const deferred = new DeferredShards(spool);
    const shard = await deferred.open('/base');
    await shard.add(pages.slice(0, 2));
    await shard.add(pages.slice(2));
    t.equal(spool.count, pages.length, 'one document per page, in the spool');
    const files = watched(shard.files());
    // A whole Pagefind index built meanwhile: the waiting shard's turn has not come.
    const expected = await buildPagefindShard(pages, '/base');
    t.equal(files.settled(), false, 'not written before the release');
    deferred.release();
    t.same(bytesOf(await files.promise), bytesOf(expected), 'the same files, byte for byte');
  });

  t.test('should index the shards one after another, in the order their bundles were asked for', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    const deferred = new DeferredShards(spool);
    const [first, second] = await Promise.all([deferred.open(), deferred.open()]);
    await first.add(pages.slice(0, 3));
    await second.add(pages.slice(3));
    const order: string[] = [];
    const later = second.files().then(() => order.push('second'));
    const sooner = first.files().then(() => order.push('first'));
    deferred.release();
    await Promise.all([later, sooner]);
    t.same(order, ['second', 'first']);
  });

  t.test('should take pages added after the release, and index a shard released before it was filled', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    const deferred = new DeferredShards(spool);
    deferred.release();
    const shard = await deferred.open();
    await shard.add(pages);
    t.same(bytesOf(await shard.files()), bytesOf(await buildPagefindShard(pages)));
  });

  t.test('should not index a shard discarded while it waited', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    const deferred = new DeferredShards(spool);
    const shard = await deferred.open();
    await shard.add(pages);
    const files = shard.files();
    await shard.discard();
    deferred.release();
    await t.rejects(files, { code: 'search_index', message: 'search shard was discarded, or its bundle already taken' });
  });

  t.test('should fail, not hang, when its documents are gone (the build closed the spool)', async (t) => {
    const spool = new Spool();
    const deferred = new DeferredShards(spool);
    const shard = await deferred.open();
    await shard.add(pages);
    const files = shard.files();
    spool.close();
    deferred.release();
    await t.rejects(files, { code: 'search_index', message: `search document 0 ${pages[0].urlPath} is missing from its spool` });
  });
});

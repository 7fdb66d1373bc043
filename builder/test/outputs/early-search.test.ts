import t from 'tap';
import { startChangedShards } from '../../src/outputs/early-search.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { buildSearchIndex } from '../../src/outputs/search-index.ts';
import { shardOf } from '../../src/outputs/search-shards.ts';
import type { PageRecord } from '../../src/state/page-bodies.ts';
import { summarize } from '../../src/state/page-summaries.ts';
import { Spool } from '../../src/state/spool.ts';
import type { CompiledPage } from '../../src/types.ts';

const page = (i: number, text = `Widget number ${i} spins.`): CompiledPage => ({
  sourcePath: `docs/guides/page-${i}.mdx`, urlPath: `/guides/page-${i}`, title: `Guide ${i}`, frontmatter: {},
  bodyHtml: `<h2 id="usage">Usage</h2><p>${text}</p>`, markdown: `# Guide ${i}\n\n${text}\n`, toc: [], updates: [], rss: false, searchText: text,
});
const pages = Array.from({ length: 6 }, (_, i) => page(i));
const record = (p: CompiledPage): PageRecord => ({ cacheKey: `key-${p.urlPath}`, summary: summarize(p, {}) });
const byUrl = new Map(pages.map((p) => [p.urlPath, p]));
const load = async (r: PageRecord) => byUrl.get(r.summary.urlPath)!;
const loadPaths = async (paths: string[]) => paths.map((p) => byUrl.get(p)!);
const entries = (list: CompiledPage[]) => list.map((p) => ({ urlPath: p.urlPath, searchHash: summarize(p, {}).searchHash }));

t.teardown(closePagefind);

t.test('startChangedShards', async (t) => {
  const first = await buildSearchIndex(pages, { perShard: 2 });
  const coldManifest = first.manifest;
  const edited = page(4, 'Widget four was rewritten.');
  const after = pages.map((p) => (p.urlPath === edited.urlPath ? edited : p));
  const unchanged = pages.filter((p) => p !== pages[4]).map(record);
  const fresh = await buildSearchIndex(after, { perShard: 2, previous: first.manifest, overlayLimit: 0 });

  t.test('should open only the changed page\'s shard, holding its unchanged pages', async (t) => {
    const started = startChangedShards({ changed: [edited.sourcePath], unchanged, pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: first.manifest, overlayLimit: 0, load }).started;
    const name = `4-${shardOf(edited.urlPath, 4)}`;
    t.same([...started.keys()], [name]);
    t.same([...started.get(name)!.urlPaths].sort(), pages.filter((p) => p !== pages[4] && shardOf(p.urlPath, 4) === shardOf(edited.urlPath, 4)).map((p) => p.urlPath).sort());
    await buildSearchIndex([...entries(after.filter((p) => p !== edited)), edited], { perShard: 2, previous: first.manifest, overlayLimit: 0, started, load: loadPaths });
  });

  t.test('should produce the same bundle as indexing the shard from scratch', async (t) => {
    const started = startChangedShards({ changed: [edited.sourcePath], unchanged, pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: first.manifest, overlayLimit: 0, load }).started;
    const early = await buildSearchIndex([...entries(after.filter((p) => p !== edited)), edited], { perShard: 2, previous: first.manifest, overlayLimit: 0, started, load: loadPaths });
    t.same(early.rebuilt, fresh.rebuilt);
    t.same(early.manifest, fresh.manifest);
    t.same([...early.files.keys()].sort(), [...fresh.files.keys()].sort());
    for (const [key, bytes] of fresh.files) t.same(early.files.get(key), bytes, key);
  });

  t.test('should keep a bundle written early in the spool, and publish the same bytes from it', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    const early = startChangedShards({ changed: [edited.sourcePath], unchanged, pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: first.manifest, overlayLimit: 0, load, spool });
    early.add([edited]);
    const name = `4-${shardOf(edited.urlPath, 4)}`;
    await early.started.get(name)!.files;
    t.ok(spool.count > 0, 'the bundle went to the spool');
    const result = await buildSearchIndex([...entries(after.filter((p) => p !== edited)), edited], { perShard: 2, previous: first.manifest, overlayLimit: 0, started: early.started, load: loadPaths });
    t.same([...result.files.keys()].sort(), [...fresh.files.keys()].sort());
    for (const [key, bytes] of fresh.files) t.same(Buffer.from(result.files.get(key)!), Buffer.from(bytes), key);
  });

  t.test('should write a shard\'s bundle once its last page arrives, and order the compile shard by shard', async (t) => {
    const [one, two] = [pages[0], pages.find((p) => shardOf(p.urlPath, 4) !== shardOf(pages[0].urlPath, 4))!];
    const early = startChangedShards({ changed: [two.sourcePath, one.sourcePath], unchanged: pages.filter((p) => p !== one && p !== two).map(record), pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: coldManifest, overlayLimit: 0, load });
    const [first, second] = [`4-${shardOf(one.urlPath, 4)}`, `4-${shardOf(two.urlPath, 4)}`];
    t.same([early.started.get(first)!.files, early.started.get(second)!.files], [undefined, undefined], 'nothing written while pages are missing');
    early.add([one]);
    t.ok(early.started.get(first)!.files, 'the complete shard is being written');
    t.equal(early.started.get(second)!.files, undefined);
    t.ok((await early.started.get(first)!.files!)().size > 0);
    early.add([two]);
    t.ok(early.started.get(second)!.files);
    t.same(new Set([early.rank(one.sourcePath), early.rank(two.sourcePath)]), new Set([0, 1]), 'each changed shard has its rank');
    const open = [shardOf(one.urlPath, 4), shardOf(two.urlPath, 4)];
    const elsewhere = Array.from({ length: 50 }, (_, i) => `other-${i}`).find((n) => !open.includes(shardOf(`/${n}`, 4)))!;
    t.equal(early.rank(`docs/${elsewhere}.mdx`), 2, 'a page of no open shard comes last');
    await buildSearchIndex(pages, { perShard: 2, started: early.started });
  });

  t.test('should produce the same bundle whichever page of the shard changed', async (t) => {
    // Pagefind numbers pages in the order they are added: unchanged pages after the changed one
    // must wait for it, or the index differs from a cold build's.
    for (const target of pages) {
      const changed = page(Number(target.urlPath.split('-').at(-1)), 'This widget was rewritten.');
      const now = pages.map((p) => (p === target ? changed : p));
      const scratch = await buildSearchIndex(now, { perShard: 2 });
      const early = startChangedShards({ changed: [changed.sourcePath], unchanged: pages.filter((p) => p !== target).map(record), pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: first.manifest, overlayLimit: 0, load });
      early.add([changed]);
      const result = await buildSearchIndex([...entries(now.filter((p) => p !== changed)), changed], { perShard: 2, previous: first.manifest, overlayLimit: 0, started: early.started, load: loadPaths });
      for (const name of result.rebuilt) {
        const keys = [...scratch.files.keys()].filter((key) => key.startsWith(`_pagefind/${name}/`));
        t.same(keys.filter((key) => Buffer.compare(Buffer.from(result.files.get(key) ?? ''), Buffer.from(scratch.files.get(key) ?? '')) !== 0), [], `${target.urlPath} changed: shard ${name}`);
      }
    }
  });

  t.test('should ignore early shards of another shard count', async (t) => {
    // Planned for 3 pages (one shard); the site has 6 (four shards): the early shard is discarded.
    const started = startChangedShards({ changed: [edited.sourcePath], unchanged, pageCount: 3, contentRoot: 'docs/', basePath: '', perShard: 2, previous: first.manifest, overlayLimit: 0, load }).started;
    t.same([...new Set([...started.keys()].map((k) => k.split('-')[0]))], ['2'], 'no shard of the previous count is usable: every shard of the planned count is opened');
    const result = await buildSearchIndex([...entries(after.filter((p) => p !== edited)), edited], { perShard: 2, previous: first.manifest, overlayLimit: 0, started, load: loadPaths });
    t.same(result.manifest, fresh.manifest);
  });

  t.test('should open only the overlay for an edit that fits in it, giving the bundle indexing it afterwards gives', async (t) => {
    const early = startChangedShards({ changed: [edited.sourcePath], unchanged, pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, previous: coldManifest, load });
    t.same([...early.started.keys()], ['overlay']);
    early.add([edited]);
    const result = await buildSearchIndex([...entries(after.filter((p) => p !== edited)), edited], { perShard: 2, previous: coldManifest, started: early.started, load: loadPaths });
    const scratch = await buildSearchIndex(after, { perShard: 2, previous: coldManifest });
    t.same(result.rebuilt, ['overlay']);
    t.same(result.manifest, scratch.manifest);
    t.same([...result.files.keys()].sort(), [...scratch.files.keys()].sort());
    for (const [key, bytes] of scratch.files) t.same(result.files.get(key), bytes, key);
  });

  t.test('should open nothing without changes', async (t) => {
    t.same(startChangedShards({ changed: [], unchanged, pageCount: 6, contentRoot: 'docs/', basePath: '', load }).started.size, 0);
  });

  t.test('should index compiled pages as they come, with the same bundles as indexing from scratch', async (t) => {
    // A cold build: every page changes; pages arrive in two compiled batches.
    const early = startChangedShards({ changed: pages.map((p) => p.sourcePath), unchanged: [], pageCount: 6, contentRoot: 'docs/', basePath: '', perShard: 2, load });
    t.same([...early.started.keys()].sort(), [...new Set(pages.map((p) => `4-${shardOf(p.urlPath, 4)}`))].sort());
    early.add(pages.slice(0, 4));
    early.add(pages.slice(4));
    t.same(new Set([...early.started.values()].flatMap((s) => [...s.urlPaths])), new Set(pages.map((p) => p.urlPath)));
    const result = await buildSearchIndex(entries(pages), { perShard: 2, started: early.started, load: async () => { throw new Error('every page was added early'); } });
    t.same(result.manifest, first.manifest);
    for (const [key, bytes] of first.files) t.same(result.files.get(key), bytes, key);
  });
});

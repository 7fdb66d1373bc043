import t from 'tap';
import { createPageCache } from '../../src/cache/page-cache.ts';
import { createPageBodies, PageMemory } from '../../src/state/page-bodies.ts';
import { summarize } from '../../src/state/page-summaries.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { CompiledPage } from '../../src/types.ts';
import { tempDir } from '../helpers/git-repo.ts';

const page = (n: number): CompiledPage => ({
  sourcePath: `docs/p${n}.mdx`, urlPath: `/p${n}`, title: `P${n}`, frontmatter: {}, bodyHtml: `<p>${'x'.repeat(10)}</p>`,
  markdown: 'm', toc: [], updates: [], rss: false, searchText: 's',
});

t.test('page bodies', async (t) => {
  const cache = createPageCache(createLocalDirStore(tempDir()));
  const a = page(1);
  const b = page(2);
  await cache.put('ka', { page: a, deps: {} });

  t.test('should serve remembered pages without the cache, dropping the least recently used over the budget', async (t) => {
    await cache.put('kb', { page: b, deps: {} });
    const memory = new PageMemory(40);
    const bodies = createPageBodies(cache, memory);
    const inMemory = (p: CompiledPage) => ({ ...p, bodyHtml: `<p>mem ${p.title}</p>` }); // 15 + 2 characters
    bodies.remember('ka', inMemory(a), {});
    bodies.remember('kb', inMemory(b), {});
    t.same(await bodies.load({ cacheKey: 'ka', summary: summarize(a, {}) }, 'docs/'), inMemory(a), 'a from memory');
    bodies.remember('kc', inMemory(page(3)), {}); // over 40: b, used least recently, goes
    t.same(await bodies.load({ cacheKey: 'ka', summary: summarize(a, {}) }, 'docs/'), inMemory(a), 'a still in memory');
    t.same(await bodies.load({ cacheKey: 'kb', summary: summarize(b, {}) }, 'docs/'), b, 'b read from the cache (and kept: kc, least recent, goes)');
    // A later build sharing the memory finds the pages without the cache.
    t.same(await createPageBodies(cache, memory).load({ cacheKey: 'ka', summary: summarize(a, {}) }, 'docs/'), inMemory(a));
  });

  t.test('should place a page read under another path at that path', async (t) => {
    const bodies = createPageBodies(cache);
    const moved = await bodies.load({ cacheKey: 'ka', summary: { ...summarize(a, {}), sourcePath: 'docs/moved.mdx', urlPath: '/moved' } }, 'docs/');
    t.same({ sourcePath: moved.sourcePath, urlPath: moved.urlPath, bodyHtml: moved.bodyHtml }, { sourcePath: 'docs/moved.mdx', urlPath: '/moved', bodyHtml: a.bodyHtml });
  });

  t.test('should fail with an app error when the entry is gone', async (t) => {
    const err = await createPageBodies(cache).load({ cacheKey: 'missing', summary: summarize(b, {}) }, 'docs/').catch((e) => e);
    t.same({ kind: err.kind, code: err.code, message: err.message }, { kind: 'app', code: 'cache_missing', message: 'page cache entry missing of docs/p2.mdx is missing or unreadable' });
  });

  t.test('should hold a page per cache key and imports: another snippet version is another page', async (t) => {
    const memory = new PageMemory();
    const withNote = (note: string): CompiledPage => ({ ...a, bodyHtml: `<p>${note}</p>` });
    createPageBodies(cache, memory).remember('kn', withNote('snippet v1'), { 'snippets/n.mdx': 'blob1' });
    await cache.put('kn', { page: withNote('snippet v2'), deps: { 'snippets/n.mdx': 'blob2' } });
    // A later build (or another site) whose page imports the snippet's next version.
    const later = createPageBodies(cache, memory);
    const load = (blob: string) => later.load({ cacheKey: 'kn', summary: summarize(a, { 'snippets/n.mdx': blob }) }, 'docs/');
    t.equal((await load('blob2')).bodyHtml, '<p>snippet v2</p>', 'read from the cache, not the v1 page in memory');
    t.equal((await load('blob1')).bodyHtml, '<p>snippet v1</p>');
  });
});

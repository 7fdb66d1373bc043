import t from 'tap';
import { gunzipSync } from 'node:zlib';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { buildSearchIndex, SEARCH_MANIFEST_KEY, type SearchIndexResult } from '../../src/outputs/search-index.ts';
import { decideOverlay, OVERLAY_LIST_KEY, pageStamp } from '../../src/outputs/search-overlay.ts';
import { searchHash, shardOf, type SearchFilters, type SearchPage } from '../../src/outputs/search-shards.ts';

const page = (i: number, text = `Widget number ${i} spins.`): SearchPage => ({ urlPath: `/guides/page-${i}`, title: `Guide ${i}`, bodyHtml: `<h2 id="usage">Usage</h2><p>${text}</p>` });
const site = Array.from({ length: 12 }, (_, i) => page(i));
const edit = (pages: SearchPage[], i: number, text: string) => pages.map((p) => (p.urlPath === `/guides/page-${i}` ? page(i, text) : p));
const shardName = (i: number) => `4-${shardOf(`/guides/page-${i}`, 4)}`;
/** 12 pages, 4 per shard at most: four shards. */
const opts = { perShard: 4 } as const;

/** Each Pagefind fragment of the given keys: `{ url, content, filters, meta }`. */
const fragments = (result: SearchIndexResult, prefix: string) => [...result.files]
  .filter(([key]) => key.startsWith(prefix) && key.includes('/fragment/'))
  .map(([, bytes]) => { const text = gunzipSync(bytes as Buffer).toString('utf8'); return JSON.parse(text.slice(text.indexOf('{'))) as { url: string; content: string; filters: unknown; meta: unknown }; });
const list = (result: SearchIndexResult) => JSON.parse(String(result.files.get(OVERLAY_LIST_KEY))) as { version: number; base?: string; ids: string[]; urls: string[] };

t.teardown(closePagefind);

t.test('search overlay', async (t) => {
  const cold = await buildSearchIndex(site, opts);

  t.test('should decide from stamps: a changed page to the overlay, a gone one as deleted, none without a usable home', async (t) => {
    const stamps = new Map<string, string | undefined>(site.map((p, i) => [p.urlPath, i === 3 ? 'changed' : cold.manifest.shards.find((s) => s.stamps?.[p.urlPath])!.stamps![p.urlPath]]));
    stamps.delete('/guides/page-5');
    stamps.set('/guides/new', undefined);
    // 12 pages again (one gone, one new): the same four shards.
    t.same(decideOverlay(stamps, cold.manifest, { basePath: '', perShard: 4 }), { reindex: new Set(), pages: ['/guides/new', '/guides/page-3'], deleted: ['/guides/page-5'] });
    const whole = new Map(stamps);
    whole.delete('/guides/new');
    whole.set('/guides/page-5', 'x');
    t.same(decideOverlay(whole, cold.manifest, { basePath: '', perShard: 4 }).deleted, [], 'every page there: none deleted');
    t.same(decideOverlay(stamps, cold.manifest, { basePath: '', perShard: 4 }).deleted, ['/guides/page-5'], 'the same shards decided again: still found gone');
    t.same(decideOverlay(stamps, undefined, { basePath: '', perShard: 4 }).reindex, new Set(cold.manifest.shards.map((s) => s.name)), 'a cold build indexes every shard');
    t.same(decideOverlay(stamps, cold.manifest, { basePath: '/docs', perShard: 4 }).pages, [], 'another base path: every shard is indexed, nothing overlaid');
    t.same(decideOverlay(stamps, cold.manifest, { basePath: '', perShard: 4, limit: 0 }).pages, [], 'limit 0: no overlay');
  });

  let one: SearchIndexResult;
  t.test('should index only the edited page, into the overlay, and keep every shard', async (t) => {
    one = await buildSearchIndex(edit(site, 3, 'Widget three was rewritten with zanzibarite.'), { ...opts, previous: cold.manifest });
    t.same(one.rebuilt, ['overlay']);
    t.equal(one.indexed, 1);
    t.same(one.kept.sort(), cold.manifest.shards.flatMap((s) => s.files).sort(), 'every shard kept');
    const base = one.manifest.overlay!.base!;
    t.match(base, /^\/_pagefind\/overlay-[0-9a-f]{16}\/$/);
    t.same([...one.files.keys()].filter((key) => !key.startsWith(base.slice(1))), [OVERLAY_LIST_KEY, SEARCH_MANIFEST_KEY], 'no shard file written');
    t.same(fragments(one, base.slice(1)).map((f) => [f.url, f.content]), [['/guides/page-3', 'Guide 3. Usage. Widget three was rewritten with zanzibarite.']]);
    const files = one.manifest.overlay!.files.map((key) => key.slice(base.length - 1));
    t.same(files.filter((f) => /^pagefind(-worker|-highlight)?\.js$|^wasm\./.test(f)), [], 'no script or WebAssembly: the overlay is merged into the first shard');
    t.ok(files.includes('pagefind-entry.json'));
    const id = /fragment\/(.+)\.pf_fragment$/.exec(one.manifest.overlay!.files.find((k) => k.includes('/fragment/'))!)![1];
    t.same(list(one), { version: 1, base: base.slice('/_pagefind/'.length), ids: [id], urls: ['/guides/page-3'] });
  });

  t.test('should accumulate edits, list deleted pages, and write nothing new when nothing changed', async (t) => {
    const sites = edit(edit(site, 3, 'Widget three was rewritten with zanzibarite.'), 7, 'Seven changed too.').filter((p) => p.urlPath !== '/guides/page-9');
    const two = await buildSearchIndex(sites, { ...opts, previous: one.manifest });
    t.same(two.manifest.overlay!.pages, ['/guides/page-3', '/guides/page-7']);
    t.same(two.manifest.overlay!.deleted, ['/guides/page-9']);
    t.equal(two.indexed, 2);
    t.same(list(two).urls, ['/guides/page-3', '/guides/page-7', '/guides/page-9']);
    t.equal(list(two).ids.length, 2);
    t.notOk(two.files.has(`${one.manifest.overlay!.base!.slice(1)}pagefind-entry.json`), 'a new overlay is a new folder');
    const again = await buildSearchIndex(sites, { ...opts, previous: two.manifest });
    t.same(again.rebuilt, []);
    t.equal(again.indexed, 0);
    t.same([...again.files.keys()], [OVERLAY_LIST_KEY, SEARCH_MANIFEST_KEY]);
    t.equal(again.files.get(OVERLAY_LIST_KEY), two.files.get(OVERLAY_LIST_KEY), 'the same list, byte for byte');
    t.equal(again.files.get(SEARCH_MANIFEST_KEY), two.files.get(SEARCH_MANIFEST_KEY), 'the same manifest, byte for byte');
    t.same(again.kept.sort(), [...two.manifest.shards.flatMap((s) => s.files), ...two.manifest.overlay!.files].sort());
  });

  t.test('should fold the shards covering the most pages into their bundles once the overlay is over its limit', async (t) => {
    const a = await buildSearchIndex(edit(site, 3, 'Three, edited.'), { ...opts, previous: cold.manifest, overlayLimit: 2 });
    const changedTwo = edit(edit(site, 3, 'Three, edited.'), 4, 'Four, edited.');
    const b = await buildSearchIndex(changedTwo, { ...opts, previous: a.manifest, overlayLimit: 2 });
    t.same(b.manifest.overlay!.pages, ['/guides/page-3', '/guides/page-4']);
    // A third page over a limit of two: one shard is re-indexed, the one covering the most (ties by name).
    const three = [...new Set([3, 4, 8].map(shardName))];
    const c = await buildSearchIndex(edit(changedTwo, 8, 'Eight, edited.'), { ...opts, previous: b.manifest, overlayLimit: 2 });
    const counts = new Map(three.map((name) => [name, [3, 4, 8].filter((i) => shardName(i) === name).length]));
    const folded = [...counts].sort(([x, a], [y, b]) => b - a || (x < y ? -1 : 1))[0][0];
    t.ok(c.rebuilt.includes(folded), `shard ${folded} re-indexed`);
    t.same(c.rebuilt.filter((name) => name !== 'overlay'), [folded], 'only that shard');
    t.same(c.manifest.overlay?.pages ?? [], [3, 4, 8].filter((i) => shardName(i) !== folded).map((i) => `/guides/page-${i}`), 'its pages leave the overlay');
    const shard = c.manifest.shards.find((s) => s.name === folded)!;
    t.same(fragments(c, shard.base.slice(1)).filter((f) => /edited/.test(f.content)).map((f) => f.url).sort(), [3, 4, 8].filter((i) => shardName(i) === folded).map((i) => `/guides/page-${i}`), 'the folded shard holds the edits');
    const now = edit(changedTwo, 8, 'Eight, edited.');
    t.same(shard.stamps, Object.fromEntries(now.filter((p) => shardName(Number(p.urlPath.split('-')[1])) === folded).map((p) => [p.urlPath, pageStamp(p.urlPath, searchHash(p))])), 'its stamps are the pages\' current ones');
  });

  t.test('should index overlay pages with the filters and metadata of their shard', async (t) => {
    const filters: SearchFilters = { filters: (u) => ({ scope: [u.endsWith('3') ? 'fr/latest' : 'en/latest'] }), meta: (u) => ({ path: u }) };
    const home = await buildSearchIndex(site, { ...opts, filters });
    const edited = await buildSearchIndex(edit(site, 3, 'Three, edited.'), { ...opts, filters, previous: home.manifest });
    const before = fragments(home, '_pagefind/').find((f) => f.url === '/guides/page-3')!;
    const after = fragments(edited, edited.manifest.overlay!.base!.slice(1))[0];
    t.same([after.filters, after.meta], [before.filters, before.meta]);
    t.same(after.filters, { scope: ['fr/latest'] });
  });
});

import t from 'tap';
import { gunzipSync } from 'node:zlib';
import { isPageFailure } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { buildSearchIndex, parseSearchManifest, plannedSearchBase, SEARCH_MANIFEST_KEY, searchBaseOf } from '../../src/outputs/search-index.ts';
import { planShards, shardOf } from '../../src/outputs/search-shards.ts';

const pages = Array.from({ length: 6 }, (_, i) => ({
  urlPath: `/guides/page-${i}`,
  title: `Guide ${i}`,
  bodyHtml: `<h2 id="usage">Usage</h2><p>Install widget number ${i}.</p><div data-visibility="agents" style="display:none">agentonlyword</div>`,
}));

/** Pagefind fragments are gzipped `pagefind_dcd` + JSON. */
const fragments = (files: Map<string, Buffer | string>) =>
  [...files].filter(([key]) => key.includes('/fragment/')).map(([, bytes]) => gunzipSync(bytes as Buffer).toString('utf8'));
const fragmentText = (files: Map<string, Buffer | string>) => fragments(files).join('\n');

t.teardown(closePagefind);

t.test('buildSearchIndex', async (t) => {
  t.test('should write a Pagefind bundle per shard and a manifest of their bases', async (t) => {
    const result = await buildSearchIndex(pages, { basePath: '/docs' });
    t.same(result.rebuilt, ['1-0']);
    t.same(result.kept, []);
    const entry = JSON.parse(String(result.files.get('_pagefind/1-0/pagefind-entry.json'))) as { languages: Record<string, { page_count: number }> };
    t.equal(entry.languages.en.page_count, 6);
    for (const file of ['pagefind.js', 'pagefind-worker.js', 'wasm.en.pagefind']) t.ok(result.files.has(`_pagefind/1-0/${file}`), `${file} exists`);
    t.notOk(result.files.has('_pagefind/1-0/pagefind-ui.js'), 'Pagefind UI bundles are not published');
    t.equal(searchBaseOf(result.manifest), '/_pagefind/1-0/,/_pagefind/overlay.json');
    t.same(parseSearchManifest(String(result.files.get(SEARCH_MANIFEST_KEY))), result.manifest);
    t.same(result.manifest.shards[0].files, [...result.files.keys()].filter((k) => k.startsWith('_pagefind/1-0/')).sort());
    const fragments = fragmentText(result.files);
    t.match(fragments, '"url":"/docs/guides/page-0"', 'result URLs carry the base path');
    t.match(fragments, 'Install widget number 3');
    t.notMatch(fragments, 'agentonlyword', 'agents-only content is not searchable');
  });

  t.test('should re-index only the shard of an edited page', async (t) => {
    const first = await buildSearchIndex(pages, { perShard: 2 });
    t.same(first.manifest.bases, ['/_pagefind/4-0/', '/_pagefind/4-1/', '/_pagefind/4-2/', '/_pagefind/4-3/'].filter((b) => first.manifest.shards.some((s) => s.base === b)));
    const unchanged = await buildSearchIndex(pages, { perShard: 2, previous: first.manifest, overlayLimit: 0 });
    t.same(unchanged.rebuilt, []);
    t.same([...unchanged.files.keys()], ['_pagefind/overlay.json', SEARCH_MANIFEST_KEY]);
    t.same(unchanged.manifest, first.manifest);
    t.same(unchanged.kept.sort(), first.manifest.shards.flatMap((s) => s.files).sort());

    const edited = pages.map((p, i) => (i === 4 ? { ...p, bodyHtml: '<p>Rewritten</p>' } : p));
    const second = await buildSearchIndex(edited, { perShard: 2, previous: first.manifest, overlayLimit: 0 });
    t.same(second.rebuilt, [`4-${shardOf('/guides/page-4', 4)}`]);
    t.equal(second.manifest.shards.reduce((n, s) => n + s.pages, 0), 6);
  });

  t.test('should index a compiled page without repeating its title or running table cells together', async (t) => {
    const compiler = await createCompiler({ workers: 0 });
    t.teardown(() => compiler.close());
    const source = '# Glossary\n\nTerms used in these docs.\n\n| Method | Path | Purpose |\n| --- | --- | --- |\n| GET | /pages | List pages |\n';
    const [page] = await compiler.compile([{ sourcePath: 'docs/glossary.mdx', source, contentRoot: 'docs/' }], { readFile: async () => undefined });
    if (isPageFailure(page)) throw new Error(page.message);
    const result = await buildSearchIndex([page]);
    const [fragment] = fragments(result.files).map((f) => JSON.parse(f.slice(f.indexOf('{'))) as { content: string; meta: { title: string } });
    t.equal(fragment.meta.title, 'Glossary');
    t.equal(fragment.content, 'Glossary. Terms used in these docs. Method Path Purpose GET. /pages. List pages.');
  });

  t.test('should plan the search base of the non-empty shards, as the shard plan names them', async (t) => {
    for (const [count, perShard] of [[0, undefined], [1, undefined], [3, 1], [5, 2], [900, undefined], [40, 3]] as const) {
      const pages = Array.from({ length: count }, (_, i) => ({ urlPath: `/guide/page-${i}`, searchHash: `h${i}` }));
      const expected = [...planShards(pages, '/docs', perShard).filter((plan) => plan.pages.length > 0).map((plan) => `/_pagefind/${plan.name}/`), '/_pagefind/overlay.json'].join(',');
      t.equal(plannedSearchBase(pages, '/docs', perShard), expected, `${count} pages, ${perShard ?? 'default'} per shard`);
    }
  });

  t.test('should ignore a previous manifest that is missing or unreadable', async (t) => {
    t.equal(parseSearchManifest(undefined), undefined);
    t.equal(parseSearchManifest('{"version":2}'), undefined);
    t.equal(parseSearchManifest('not json'), undefined);
  });

  t.test('should give the same frozen manifest for the same text, and a new one for another', async (t) => {
    const text = JSON.stringify({ version: 1, bases: [], shards: [{ name: '1-0', stamps: { '/a': '0123' } }] });
    const first = parseSearchManifest(text)!;
    t.equal(parseSearchManifest(`${text}`), first, 'the same text');
    t.ok(Object.isFrozen(first) && Object.isFrozen(first.shards) && Object.isFrozen(first.shards[0]) && Object.isFrozen(first.shards[0].stamps), 'frozen: later builds share it');
    const other = parseSearchManifest(text.replace('0123', '4567'))!;
    t.not(other, first);
    t.equal(other.shards[0].stamps!['/a'], '4567');
    t.equal(parseSearchManifest('not json'), undefined);
    t.equal(parseSearchManifest('not json'), undefined, 'unreadable, asked twice');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { MANIFEST_KEY, readManifest } from '../../src/state/manifest.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { recordingStore } from '../helpers/recording-store.ts';
import { PageMemory } from '../../src/state/page-bodies.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, repoFromFolder, tempDir } from '../helpers/git-repo.ts';

const fixture = fileURLToPath(new URL('../fixtures/sample-repo', import.meta.url));

/** Written keys with content hashes replaced, sorted, so a list can be compared exactly. */
const shape = (keys: string[]) => [...new Set(keys.map((k) => k
  .replace(/^_folio\/cache\/pages\/[0-9a-f]{64}\.json\.gz$/, '_folio/cache/pages/<key>.json.gz')
  .replace(/\/[0-9a-f]{32}\.json\.gz$/, '/<bucket>.json.gz')
  .replace(/\/(en_|pagefind\.en_)[0-9a-f]+\./, '/$1<hash>.')
  .replace(/^_pagefind\/overlay-[0-9a-f]{16}\//, '_pagefind/overlay-<fingerprint>/')))].sort();

t.teardown(closePagefind);

/** A small site exercising every site-wide output: visibility, updates, redirects, a public file named like an output. */
const OUTPUTS_REPO = {
  'docs.json': JSON.stringify({
    name: 'Outputs',
    seo: { description: 'Docs for the outputs test.' },
    redirects: [
      { source: '/old', destination: '/guides/agents', permanent: true },
      { source: '/blog', destination: 'https://outputs.example/blog' },
    ],
  }),
  'docs/index.mdx': '---\ntitle: Home\ndescription: Start here.\nrss: true\n---\n\n# Home\n\nWelcome.\n',
  'docs/guides/agents.mdx': [
    '---', 'title: Agents', 'description: What agents read.', 'order: 1', '---', '', '# Agents', '',
    '<Visibility for="humans">', '  Click **Copy page**.', '</Visibility>', '',
    '<Visibility for="agents">', '  Agents read this line.', '</Visibility>', '', 'Everyone reads this.', '',
  ].join('\n'),
  'docs/changelog.mdx': [
    '---', 'title: Changelog', 'description: Releases.', 'order: 2', '---', '', '# Changelog', '',
    '<Update label="v2" description="Second" date="2025-03-01" rss="Faster builds.">', '  Builds are faster.', '</Update>', '',
    '<Update label="v1" description="First" date="2025-01-01">', '  First release.', '</Update>', '',
  ].join('\n'),
  'public/robots.txt': 'User-agent: custom\n',
};

const CHANGELOG_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel>
<title>Changelog · Outputs</title>
<link>https://outputs.example/changelog</link>
<description>Releases.</description>
<atom:link href="https://outputs.example/changelog/rss.xml" rel="self" type="application/rss+xml"/>
<item>
<title>v2</title>
<link>https://outputs.example/changelog#v2</link>
<guid isPermaLink="true">https://outputs.example/changelog#v2</guid>
<pubDate>Sat, 01 Mar 2025 00:00:00 GMT</pubDate>
<description>Faster builds.</description>
<content:encoded><![CDATA[<p>Builds are faster.</p>]]></content:encoded>
</item>
<item>
<title>v1</title>
<link>https://outputs.example/changelog#v1</link>
<guid isPermaLink="true">https://outputs.example/changelog#v1</guid>
<pubDate>Wed, 01 Jan 2025 00:00:00 GMT</pubDate>
<description>First release.</description>
<content:encoded><![CDATA[<p>First release.</p>]]></content:encoded>
</item>
</channel>
</rss>
`;

t.test('build', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const { dir } = repoFromFolder(fixture);
  const out = tempDir();
  const rec = recordingStore(out);
  // Kept across builds, as the deployment worker keeps them.
  const pageMemory = new PageMemory();
  const opts = (o: Partial<BuildOptions> = {}): BuildOptions => ({
    source: { kind: 'dir', dir }, store: rec.store, siteUrl: 'https://sample.example', compiler, pageMemory, year: 2025, ...o,
  });
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');
  const exists = (key: string) => fs.existsSync(path.join(out, key));
  const counts = (r: Awaited<ReturnType<typeof build>>) => ({ total: r.pagesTotal, ok: r.pagesSuccess, failed: r.pagesFailed, compiled: r.compiled });

  await t.test('should publish the exact site-wide outputs of a site', async (t) => {
    const repo = tempDir();
    makeRepo(repo, OUTPUTS_REPO);
    const site = tempDir();
    const res = await build({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(site), siteUrl: 'https://outputs.example', compiler, year: 2025 });
    t.same(counts(res), { total: 3, ok: 3, failed: 0, compiled: 3 });
    const text = (key: string) => fs.readFileSync(path.join(site, key), 'utf8');
    t.equal(text('guides/agents.md'), '# Agents\n\nWhat agents read.\n\nAgents read this line.\n\nEveryone reads this.\n', 'agents content in, humans content out');
    t.equal(text('llms.txt'), [
      '# Outputs', '', '> Docs for the outputs test.', '', '## Docs', '',
      '- [Home](https://outputs.example/index.md): Start here.',
      '- [Changelog](https://outputs.example/changelog.md): Releases.',
      '- [Agents](https://outputs.example/guides/agents.md): What agents read.', '',
    ].join('\n'));
    t.match(text('llms-full.txt'), 'Source: https://outputs.example/guides/agents\n\n# Agents\n\nWhat agents read.\n\nAgents read this line.\n\nEveryone reads this.\n');
    t.equal(text('changelog/rss.xml'), CHANGELOG_FEED);
    t.match(text('index/rss.xml'), '<atom:link href="https://outputs.example/index/rss.xml" rel="self" type="application/rss+xml"/>');
    t.match(text('rss.xml'), '<title>Changelog: v2</title>');
    t.equal(text('robots.txt'), 'User-agent: *\nAllow: /\n\nSitemap: https://outputs.example/sitemap.xml\n', 'the generated file wins over public/robots.txt');
    t.same(JSON.parse(text('_redirects.json')), [
      { source: '/old', destination: '/guides/agents', status: 308 },
      { source: '/blog', destination: 'https://outputs.example/blog', status: 307 },
    ]);
    t.equal(text('sitemap.xml'), [
      '<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<url><loc>https://outputs.example/</loc></url>', '<url><loc>https://outputs.example/changelog</loc></url>',
      '<url><loc>https://outputs.example/guides/agents</loc></url>', '</urlset>', '',
    ].join('\n'));
    const home = text('index.html');
    t.match(home, '<link rel="alternate" type="application/rss+xml" title="Home - Outputs" href="/index/rss.xml"/>', 'the root page links its own feed, not the site feed');
    t.match(home, '<meta name="folio-search" content="/_pagefind/1-0/,/_pagefind/overlay.json"/>');
    t.same(JSON.parse(text('_pagefind/overlay.json')), { version: 1, ids: [], urls: [] }, 'a cold build leaves the overlay empty');
    const shards = JSON.parse(text('_pagefind/shards.json')) as { bases: string[]; shards: Array<{ files: string[] }> };
    t.same(shards.bases, ['/_pagefind/1-0/']);
    for (const key of shards.shards[0].files) t.ok(fs.existsSync(path.join(site, key)), key);
    t.same(Object.keys(res.timings).sort(), ['clone', 'compile', 'exports', 'index', 'plan', 'publish', 'render', 'total']);

    await t.test('should split the search index and remove the old bundle when the shard count changes', async (t) => {
      const again = await build({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(site), siteUrl: 'https://outputs.example', compiler, year: 2025, searchPerShard: 1 });
      t.equal(again.compiled, 0);
      const split = JSON.parse(text('_pagefind/shards.json')) as { bases: string[]; shards: Array<{ files: string[]; pages: number }> };
      t.same(split.shards.map((s) => s.pages).reduce((a, b) => a + b), 3);
      t.ok(split.bases.every((b) => b.startsWith('/_pagefind/4-')), split.bases.join());
      t.match(text('guides/agents/index.html'), `<meta name="folio-search" content="${split.bases.join(',')},/_pagefind/overlay.json"/>`);
      t.equal(fs.existsSync(path.join(site, '_pagefind/1-0')), false, 'the one-shard bundle is deleted');
      for (const key of split.shards.flatMap((s) => s.files)) t.ok(fs.existsSync(path.join(site, key)), key);
    });

    await t.test("should make every page's exports again when what they read of the configuration changes, and keep them otherwise", async (t) => {
      const store = createLocalDirStore(site);
      const again = (siteUrl: string) => build({ source: { kind: 'dir', dir: repo }, store, siteUrl, compiler, year: 2025, searchPerShard: 1 });
      t.equal((await again('https://outputs.example')).uploaded, 0, 'the same configuration: nothing made again');
      const moved = await again('https://moved.example');
      t.equal(moved.compiled, 0);
      for (const key of ['index/rss.xml', 'guides/agents/rss.xml', 'changelog/rss.xml']) t.match(text(key), 'https://moved.example/', `${key} made again`);
      // A manifest written before it recorded what exports read: every export is made again once,
      // and only what differs is uploaded.
      const manifest = await readManifest(store);
      t.ok(manifest?.exportsHash, 'the manifest records what exports read');
      const root = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(site, MANIFEST_KEY))).toString('utf8')) as Record<string, unknown>;
      delete root.exportsHash;
      fs.writeFileSync(path.join(site, MANIFEST_KEY), zlib.gzipSync(JSON.stringify(root)));
      const older = await again('https://moved.example');
      t.same({ compiled: older.compiled, uploaded: older.uploaded }, { compiled: 0, uploaded: 0 });
      t.equal((await readManifest(store))?.exportsHash, manifest?.exportsHash);
    });
  });

  await t.test('should build every page, copy public files and write the manifest', async (t) => {
    const res = await build(opts());
    t.same(counts(res), { total: 3, ok: 3, failed: 0, compiled: 3 });
    t.same(res.errors, []);
    for (const key of ['index.html', 'guides/install/index.html', 'guides/usage/index.html', '404.html', '_folio/cache/manifest.json.gz']) t.ok(exists(key), key);
    t.equal(read('favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    t.match(read('guides/install/index.html'), /^<!doctype html>/);
    t.match(read('guides/install/index.html'), '<p>Shared <strong>note</strong>.</p>');
    t.same(Object.keys(res.timings).sort(), ['clone', 'compile', 'exports', 'index', 'plan', 'publish', 'render', 'total']);
  });

  await t.test('should compile and upload nothing when nothing changed', async (t) => {
    const res = await build(opts());
    t.same({ ...counts(res), uploaded: res.uploaded, deleted: res.deleted }, { total: 3, ok: 3, failed: 0, compiled: 0, uploaded: 0, deleted: 0 });
  });

  await t.test('should compile exactly one page after a one-page edit', async (t) => {
    commitFiles(dir, { 'docs/guides/usage.md': '---\ntitle: Usage\norder: 2\n---\n\n# Usage\n\nRun it twice.\n' });
    rec.clear();
    const res = await build(opts());
    t.equal(res.compiled, 1);
    t.match(read('guides/usage/index.html'), 'Run it twice.');
    t.equal(read('guides/usage.md'), '# Usage\n\nRun it twice.\n');
    // Its shell and export, the files that concatenate every page's text, the search overlay
    // holding that one page (its shard is kept), and the builder's state (the index of pages'
    // access keys holds the edited page's new blob); no other shell, export or feed.
    t.same(shape(rec.puts), [
      '_folio/cache/manifest.json.gz', '_folio/cache/manifest/<bucket>.json.gz', '_folio/cache/page-access.json.gz', '_folio/cache/pages/<key>.json.gz',
      '_folio/cache/pages/summaries/<bucket>.json.gz', '_folio/cache/summaries.json.gz',
      '_pagefind/overlay-<fingerprint>/fragment/en_<hash>.pf_fragment', '_pagefind/overlay-<fingerprint>/index/en_<hash>.pf_index',
      '_pagefind/overlay-<fingerprint>/pagefind-entry.json', '_pagefind/overlay-<fingerprint>/pagefind.en_<hash>.pf_meta',
      '_pagefind/overlay.json', '_pagefind/shards.json',
      'guides/usage.md', 'guides/usage/index.html', 'llms-full.txt',
    ]);
    t.equal(rec.puts.filter((k) => k.includes('/fragment/')).length, 1, 'one page indexed');
    t.same(JSON.parse(read('_pagefind/shards.json')).overlay.pages, ['/guides/usage']);
    t.equal(res.uploaded, rec.puts.filter((k) => !k.startsWith('_folio/cache/')).length, 'uploaded counts the site objects written');
    // The state's buckets this edit replaced are deleted once the manifest lists the new ones.
    t.same(shape(rec.deletes), ['_folio/cache/manifest/<bucket>.json.gz', '_folio/cache/pages/summaries/<bucket>.json.gz']);
  });

  await t.test('should recompile the page importing a snippet when only the snippet changed', async (t) => {
    commitFiles(dir, { 'snippets/note.mdx': 'Shared **note**, edited.\n' });
    const res = await build(opts());
    t.equal(res.compiled, 1);
    t.match(read('guides/install/index.html'), '<p>Shared <strong>note</strong>, edited.</p>');
  });

  await t.test('should treat a rename with the same bytes as a cache hit and remove the old URL', async (t) => {
    fs.renameSync(path.join(dir, 'docs/guides/usage.md'), path.join(dir, 'docs/guides/running.md'));
    commitFiles(dir, {});
    const res = await build(opts());
    t.equal(res.compiled, 0);
    t.equal(exists('guides/usage/index.html'), false);
    t.match(read('guides/running/index.html'), 'Run it twice.');
  });

  await t.test('should remove a deleted page', async (t) => {
    commitFiles(dir, { 'docs/guides/running.md': null });
    const res = await build(opts());
    t.same({ total: res.pagesTotal, compiled: res.compiled }, { total: 2, compiled: 0 });
    for (const key of ['guides/running/index.html', 'guides/running.md', 'guides/running/rss.xml']) t.equal(exists(key), false, `${key} removed`);
    t.equal(exists('guides/running'), false);
    t.notMatch(read('llms.txt'), 'running');
    t.notMatch(read('sitemap.xml'), 'running');
  });

  await t.test('should re-render shells without compiling when the configuration changes', async (t) => {
    const before = read('index.html');
    commitFiles(dir, { 'docs.json': '{ "name": "Sample Renamed", "seo": { "favicon": "/favicon.svg" } }\n' });
    rec.clear();
    const res = await build(opts());
    t.equal(res.compiled, 0);
    t.equal(rec.puts.filter((k) => k.startsWith('_folio/cache/pages/')).length, 0, 'no page cache entry written');
    t.not(read('index.html'), before);
    t.match(read('llms.txt'), '# Sample Renamed\n');
    t.match(read('index.html'), 'Sample Renamed');
  });

  await t.test('should be as incremental from an empty disk with the same store', async (t) => {
    const fresh = await createCompiler();
    t.teardown(() => fresh.close());
    const res = await build(opts({ compiler: fresh }));
    t.same({ compiled: res.compiled, uploaded: res.uploaded }, { compiled: 0, uploaded: 0 });
  });

  await t.test('should count a broken page as failed and keep its previous version live', async (t) => {
    const before = { html: read('index.html'), md: read('index.md'), llms: read('llms-full.txt') };
    commitFiles(dir, { 'docs/index.mdx': '# Welcome\n\n<Broken\n' });
    const res = await build(opts());
    t.same(counts(res), { total: 2, ok: 1, failed: 1, compiled: 1 });
    t.equal(res.errors.length, 1);
    t.equal(res.errors[0].sourcePath, 'docs/index.mdx');
    t.same({ html: read('index.html'), md: read('index.md'), llms: read('llms-full.txt') }, before);
    t.equal(read('index.md'), '# Welcome\n\nHello from the sample site.\n');
  });

  await t.test('should publish nothing when docs.json is invalid', async (t) => {
    const manifest = read('_folio/cache/manifest.json.gz');
    commitFiles(dir, { 'docs.json': '{ "theme": "maple" }\n', 'docs/index.mdx': '# Welcome back\n' });
    rec.clear();
    const err = await build(opts()).catch((e) => e);
    t.same({ puts: rec.puts, deletes: rec.deletes }, { puts: [], deletes: [] });
    t.same({ kind: err.kind, code: err.code }, { kind: 'user', code: 'invalid_config' });
    t.equal(read('_folio/cache/manifest.json.gz'), manifest);
    t.match(read('index.html'), 'Hello from the sample site.');
  });

  await t.test('should refuse a repository over the size limit with the measured size', async (t) => {
    const err = await build(opts({ limits: { maxRepoBytes: 100 } })).catch((e) => e);
    t.equal(err.code, 'repo_too_large');
    t.match(err.message, /^repository is \d+\.\d MB; the limit is 0\.0 MB$/);
  });

  await t.test('should refuse a repository with too many files', async (t) => {
    const err = await build(opts({ limits: { maxFiles: 2 } })).catch((e) => e);
    t.same({ code: err.code, message: err.message }, { code: 'too_many_files', message: 'repository has 5 files; the limit is 2' });
  });
});

t.test('the Tailwind utilities sheet is made again only when the classes change', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  const page = (text: string, classes: string) => `---\ntitle: Home\n---\n\n<img src="/a.png" alt="A" className="${classes}" />\n\n${text}\n`;
  makeRepo(dir, { 'docs.json': JSON.stringify({ name: 'Sheet' }), 'docs/index.mdx': page('One.', 'block p-4'), 'docs/a.mdx': '# A\n' });
  const out = tempDir();
  const rec = recordingStore(out);
  const run = () => build({ source: { kind: 'dir', dir }, store: rec.store, siteUrl: 'https://sheet.example', compiler });
  const linked = () => /<link rel="stylesheet" href="\/(_folio\/utilities-[0-9a-f]{12}\.css)"\/>/.exec(fs.readFileSync(path.join(out, 'index.html'), 'utf8'))?.[1];
  const state = async () => (await readManifest(rec.store))!.utilities;

  await run();
  const first = linked();
  t.ok(first, 'linked');
  t.same(await state(), { from: (await state())!.from, key: first }, 'recorded with what it was made from');
  t.match(fs.readFileSync(path.join(out, first!), 'utf8'), '.p-4 {');

  commitFiles(dir, { 'docs/index.mdx': page('Two.', 'p-4 block') });
  rec.clear();
  await run();
  t.equal(linked(), first, 'the same classes: the same sheet');
  t.notOk(rec.puts.some((k) => k.includes('utilities-')), 'not written again');
  const kept = await state();

  commitFiles(dir, { 'docs/index.mdx': page('Three.', 'block p-4 flex') });
  rec.clear();
  await run();
  const second = linked();
  t.not(second, first, 'a class more: another sheet');
  t.match(fs.readFileSync(path.join(out, second!), 'utf8'), '.flex {');
  t.not((await state())!.from, kept!.from);
  t.ok(rec.deletes.includes(first!), 'the old sheet deleted');

  commitFiles(dir, { 'docs/index.mdx': page('Four.', 'note') });
  await run();
  t.equal(linked(), undefined, 'no utility: no sheet');
  t.same(Object.keys((await state())!), ['from']);
});

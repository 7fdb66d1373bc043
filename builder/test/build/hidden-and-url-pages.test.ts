import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

// Mintlify's page frontmatter, as its documentation describes it: `hidden: true` keeps a page
// out of the navigation (and search, sitemap, llms.txt) while it is still built; `url` makes the page's
// sidebar entry a link to another site.
t.test('hidden: true and url: pages', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  makeRepo(repo, {
    'docs.json': JSON.stringify({ name: 'Hidden', navigation: { groups: [{ group: 'Docs', pages: ['index', 'secret', 'npm'] }] } }),
    'index.mdx': '---\ntitle: Home\n---\n\nHome page.\n',
    'secret.mdx': '---\ntitle: Secret page\nhidden: true\n---\n\nOnly by its address.\n',
    'npm.mdx': '---\ntitle: npm package\nurl: "https://www.npmjs.com/package/mint"\n---\n\nSee npm.\n',
  });
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(out), siteUrl: 'https://hidden.example', compiler, year: 2025 });
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');
  t.same({ ok: res.pagesSuccess, failed: res.pagesFailed }, { ok: 3, failed: 0 });
  const home = read('index.html');
  const sidebar = home.slice(home.indexOf('class="sidebar-nav"'), home.indexOf('</nav>', home.indexOf('class="sidebar-nav"')));

  t.test('should build a hidden page and leave it out of the sidebar, search and sitemap', async (t) => {
    t.match(read('secret/index.html'), 'Only by its address.');
    t.notMatch(sidebar, 'Secret page');
    t.notMatch(read('sitemap.xml'), '/secret');
    t.match(read('secret/index.html'), '<meta name="robots" content="noindex');
  });

  t.test('should leave a hidden page out of llms.txt and llms-full.txt, keeping its Markdown export', async (t) => {
    t.notMatch(read('llms.txt'), 'Secret page');
    t.notMatch(read('llms-full.txt'), 'Only by its address.');
    t.match(read('llms.txt'), '[Home](https://hidden.example/index.md)');
    t.match(read('secret.md'), 'Only by its address.');
  });

  t.test('should make a url: page\'s sidebar entry a link to that site, in a new tab', async (t) => {
    t.match(sidebar, '<a href="https://www.npmjs.com/package/mint" target="_blank" rel="noopener noreferrer" class="nav-external">npm package</a>');
    t.match(read('npm/index.html'), 'See npm.', 'the page itself is still built');
  });
});

// Mintlify's `seo.indexing: "all"`: hidden pages are indexed too (sitemap, llms.txt, search, no
// robots noindex); a page's own `noindex: true` still keeps it away from search engines.
t.test('seo.indexing "all"', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  const files = (indexing?: string) => ({
    'docs.json': JSON.stringify({
      name: 'All', ...(indexing ? { seo: { indexing } } : {}),
      navigation: { groups: [{ group: 'Docs', pages: ['index', 'secret', 'draft'] }, { group: 'Internal', hidden: true, pages: ['internal'] }] },
    }),
    'index.mdx': '---\ntitle: Home\n---\n\nHome page.\n',
    'secret.mdx': '---\ntitle: Secret page\nhidden: true\n---\n\nOnly by its address.\n',
    'draft.mdx': '---\ntitle: Draft page\nhidden: true\nnoindex: true\n---\n\nNot for engines.\n',
    'internal.mdx': '---\ntitle: Internal page\n---\n\nIn a hidden group.\n',
  });
  makeRepo(repo, files('all'));
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(out), siteUrl: 'https://all.example', compiler, year: 2025 });
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');
  t.same({ ok: res.pagesSuccess, failed: res.pagesFailed }, { ok: 4, failed: 0 });
  const sitemap = read('sitemap.xml').split('\n').filter((l) => l.startsWith('<url>'));

  t.test('should list hidden pages in the sitemap and llms.txt, without a robots noindex', async (t) => {
    t.same(sitemap, ['<url><loc>https://all.example/</loc></url>', '<url><loc>https://all.example/internal</loc></url>', '<url><loc>https://all.example/secret</loc></url>']);
    t.notMatch(read('secret/index.html'), 'name="robots"');
    t.match(read('llms.txt'), '[Secret page](https://all.example/secret.md)');
    t.match(read('llms-full.txt'), 'Only by its address.');
    t.notMatch(read('secret/index.html').slice(read('secret/index.html').indexOf('class="sidebar-nav"')), '>Secret page</a>', 'still not in the sidebar');
  });

  t.test('should still keep a noindex: true page away from search engines (robots tag, sitemap)', async (t) => {
    t.match(read('draft/index.html'), '<meta name="robots" content="noindex');
    t.notOk(sitemap.some((l) => l.includes('/draft')));
  });

  t.test('should keep hidden pages out again without it', async (t) => {
    const again = tempDir();
    const plain = tempDir();
    makeRepo(plain, files());
    await build({ source: { kind: 'dir', dir: plain }, store: createLocalDirStore(again), siteUrl: 'https://all.example', compiler, year: 2025 });
    const text = (key: string) => fs.readFileSync(path.join(again, key), 'utf8');
    t.same(text('sitemap.xml').split('\n').filter((l) => l.startsWith('<url>')), ['<url><loc>https://all.example/</loc></url>', '<url><loc>https://all.example/internal</loc></url>']);
    t.match(text('secret/index.html'), '<meta name="robots" content="noindex');
    t.notMatch(text('llms.txt'), 'Secret page');
  });
});

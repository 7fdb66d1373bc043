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

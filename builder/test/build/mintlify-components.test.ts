import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

/** A repository using every Mintlify component and page frontmatter key (see its pages). */
const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-components/', import.meta.url));

/** Warnings of keys we honestly do not support yet; nothing else may warn. */
const FIXTURE_WARNINGS = ['docs.json: theme: "mint" is a Mintlify theme; using the nearest theme, "larch"'];

t.test('a repository using every Mintlify component and frontmatter key', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const out = tempDir();
  const opts: BuildOptions = { source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: 'https://trail.example', compiler, year: 2026 };
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');
  const res = await build(opts);

  t.test('should build every page with no errors and only the expected warnings', async (t) => {
    t.same(res.errors, []);
    t.same(res.warnings, FIXTURE_WARNINGS);
    t.same({ total: res.pagesTotal, ok: res.pagesSuccess, failed: res.pagesFailed }, { total: 18, ok: 18, failed: 0 });
  });

  t.test('should give components in ESM and in snippets every built-in component', async (t) => {
    const html = read('components/snippets/index.html');
    t.match(html, '<p>Check the forecast for <strong>the Alps</strong> before you leave.</p>', '<Snippet file> from snippets/ with its props');
    t.match(html, /data-kind="tip"[^]*Bring layers/, '<Snippet file> from _snippets/');
    t.match(html, /data-kind="note"[^]*Book Ridge hut ahead <svg class="icon icon-inline" data-icon="calendar"/, 'a JSX snippet using Note and Icon');
    t.match(html, /data-kind="warning"[^]*Tell someone your route/, 'an MDX snippet component using Warning');
    t.match(html, /data-kind="info"[^]*data-icon="tent"/, 'the page\'s own component using Info and Icon');
    t.equal(fs.existsSync(path.join(out, 'snippets/weather/index.html')) || fs.existsSync(path.join(out, '_snippets/gear/index.html')), false, 'snippets are not pages');
  });

  t.test('should render CodeBlock with its props, and export it as a fence', async (t) => {
    const html = read('components/code/index.html');
    t.match(html, /<figure class="code-block" data-lang="bash" data-line-numbers><figcaption class="code-title"><svg[^>]*data-icon="terminal"[^]*?<\/svg>install\.sh<\/figcaption>/);
    t.match(html, /<figure class="code-block" data-lang="bash" data-line-numbers>[^]*?<pre class="shiki[^]*?<span class="line"><span style="[^"]*">npm<\/span>[^]*?<\/span>\n<span class="line highlighted"><span style="[^"]*">npx<\/span>/, 'highlighted as a bash fence is');
    t.match(html, /<figure class="code-block" data-lang="json" data-wrap>[^]*?<pre class="shiki[^]*?<span style="[^"]*">"name"<\/span>/, 'a CodeBlock in the page itself too');
    t.match(html, /<figure class="code-block" data-lang="json" data-wrap>/);
    t.match(read('components/code.md'), '```json trail.json\n{ "name": "ridge" }\n```');
    t.match(html, /<figure class="code-block prompt"[^]*Plan a two-day hike on the <code>ridge<\/code> trail/, 'inline code in a prompt stays inline');
  });

  t.test('should lay pages out by their mode and keep noindex pages out of the sitemap', async (t) => {
    for (const mode of ['wide', 'center', 'frame', 'custom']) t.match(read(`layouts/${mode}/index.html`), `data-page-mode="${mode}"`);
    t.notMatch(read('components/code/index.html'), 'data-page-mode');
    const sitemap = read('sitemap.xml');
    t.notMatch(sitemap, '/seo/noindex');
    t.notMatch(sitemap, '/seo/hidden');
    t.match(sitemap, '/components/code');
    t.match(read('seo/noindex/index.html'), '<meta name="robots" content="noindex"/>');
    t.match(read('seo/noindex/index.html'), '<meta property="og:image" content="/images/hero.png"/>');
    t.match(read('seo/noindex/index.html'), '<meta name="twitter:title" content="Trail notes"/>');
  });

  t.test('should show update tags and anchor a JSX label by its text', async (t) => {
    const html = read('changelog/index.html');
    t.match(html, /<section class="update" id="2026-11"[^>]*data-tags="\[&quot;Maps&quot;,&quot;Huts&quot;\]"/);
    t.match(html, /<section class="update" id="launch-week"/);
    t.match(html, /<section class="update" data-tags=[^>]*><div class="update-meta"><p class="update-description">Small fixes/);
    t.equal(read('changelog.md'), '# Changelog\n\nWhat changed on the trails.\n\n## 2026-11\n\nv3.1\n\nNew hut markers on every map.\n\n## Launch week\n\nOffline maps.\n\n## Small fixes\n\nFixed hut opening hours.\n', 'an update without a label is headed by its description');
  });

  t.test('should compile nothing again when nothing changed, failures included', async (t) => {
    const again = await build(opts);
    t.equal(again.compiled, 0);
    t.same(again.errors, []);
  });
});

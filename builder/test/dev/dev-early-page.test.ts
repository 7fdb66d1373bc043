import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { type Compiler } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createDevSession } from '../../src/dev/dev-session.ts';
import { startDevServer } from '../../src/dev/dev-server.ts';
import { openWorkingTree } from '../../src/dev/working-tree.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { ObjectStore } from '../../src/store/object-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

const example = fileURLToPath(new URL('../../examples/acme-docs', import.meta.url));

t.teardown(closePagefind);

/** A promise and what settles it: the test decides when the held work goes on. */
function latch(): { held: Promise<void>; release(): void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  return { held, release };
}

/** The page as the author sees it: its body, without the dev client's tag. */
const shown = (html: string) => html.slice(html.indexOf('<body'), html.indexOf('</body>')).replace(/<script type="module" src="\/_folio\/dev\/client\.js(\?early)?"><\/script>/, '');

t.test('dev early page', async (t) => {
  // A new copy, an empty cache: nothing is built, and the first build's compile is held until
  // the test releases it, so whatever is answered meanwhile was answered before that build.
  const dir = path.join(tempDir(), 'acme');
  fs.cpSync(example, dir, { recursive: true });
  const cacheDir = tempDir();
  const store = createLocalDirStore(cacheDir);
  const real = await createCompiler({ idleMs: Number.POSITIVE_INFINITY });
  t.teardown(() => real.close());
  const build = latch();
  const compiler: Compiler = {
    ...real,
    // Only the page asked for compiles ahead (`first`); the build's own batch waits.
    async compile(inputs, ctx) { if (!ctx.first) await build.held; return real.compile(inputs, ctx); },
    close: async () => undefined,
  };
  const tree = await openWorkingTree(dir);
  const dev = await startDevServer({ store, session: (siteUrl) => createDevSession({ tree, store, siteUrl, compiler }) });
  t.teardown(() => dev.close());
  let built = false;
  void dev.session.ready.then(() => { built = true; });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(dev.url + p, { headers, redirect: 'manual' })
    .then(async (res) => ({ status: res.status, location: res.headers.get('location'), body: await res.text(), builtWhenAnswered: built }));

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const tab = await browser.newPage();
  const early = await get('/quickstart');
  const later = Promise.all([get('/quickstart.md'), get('/getting-started'), get('/llms.txt'), get('/nowhere'), get('/_pagefind/1-0/pagefind-entry.json')]);
  // Saved while the first build is held: built right after it.
  fs.appendFileSync(path.join(dir, 'docs/reference/glossary.md'), '\nThe quasarwing gantry holds the rocket before launch.\n');
  dev.session.changed(['docs/reference/glossary.md']);

  await t.test('should answer the page asked for while the first build is still held, with its sidebar', async (t) => {
    t.equal(early.status, 200);
    t.notOk(early.builtWhenAnswered);
    t.match(early.body, /<h1[^>]*>Quickstart/);
    t.match(early.body, /<nav class="header-tabs"[\s\S]*href="\/api-reference\/rockets\/list-rockets"[\s\S]*<nav class="sidebar-nav"[\s\S]*href="\/guides\/snippets"/, 'its tabs, the API reference included, and the whole sidebar');
    t.match(early.body, /<script type="module" src="\/_folio\/dev\/client\.js\?early"><\/script><\/body>/, 'its client asks for the built page later');
  });

  await t.test('should show it styled in Chromium, with everything it loads answered before the build', async (t) => {
    // `load` waits for the stylesheets, scripts and images: none of them may wait for the build.
    await tab.goto(`${dev.url}/quickstart`, { waitUntil: 'load', timeout: 120_000 });
    t.notOk(built, 'the first build is still held');
    t.equal(await tab.textContent('h1'), 'Quickstart');
    const sheets = await tab.evaluate(() => [...document.styleSheets].filter((s) => s.href).map((s) => ({ href: new URL(s.href!).pathname, rules: s.cssRules.length })));
    t.ok(sheets.length > 0 && sheets.every((s) => s.rules > 0), `stylesheets loaded: ${JSON.stringify(sheets)}`);
    t.ok(await tab.evaluate(() => [...document.images].every((img) => img.complete)), 'images loaded');
  });

  await t.test('should make what is not made early wait for the build: never a 404 for what exists', async (t) => {
    build.release();
    const [markdown, moved, llms, missing, search] = await later;
    t.same([markdown, moved, llms, missing, search].map((r) => r.builtWhenAnswered), [true, true, true, true, true]);
    t.equal(markdown.status, 200);
    t.match(markdown.body, /^# Quickstart\n/);
    t.equal(moved.status, 308);
    t.equal(moved.location, '/quickstart');
    t.match(llms.body, /^# Acme Rockets\n/);
    t.equal(missing.status, 404);
    t.match(missing.body, /<html/, 'the site\'s own 404 page');
    t.equal(search.status, 200);
  });

  await t.test('should show the same page as the build, and swap in the built one when it lands', async (t) => {
    await dev.session.idle();
    const settled = await get('/quickstart');
    t.notMatch(settled.body, /client\.js\?early/);
    t.equal(shown(early.body), shown(settled.body), 'what the author sees did not change');
    await tab.waitForFunction(() => document.documentElement.hasAttribute('data-dev-swapped'));
    const hrefs = await tab.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')));
    for (const href of settled.body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)) t.ok(hrefs.includes(href[1]), `links ${href[1]}`);
  });

  await t.test('should find words with search and serve every other page once the background build is done', async (t) => {
    for (const p of ['/', '/guides/code-blocks', '/reference/glossary', '/api-reference/rockets/list-rockets']) {
      const res = await get(p);
      t.equal(res.status, 200, p);
      t.notMatch(res.body, /client\.js\?early/, `${p} is the built page`);
    }
    t.match((await get('/reference/glossary')).body, /quasarwing gantry/, 'the edit saved during the first build is kept');
    await tab.click('.search-open');
    await tab.fill('.search-input', 'quasarwing');
    await tab.waitForFunction(() => document.querySelector('.search-title')?.textContent === 'Glossary');
    t.equal(await tab.textContent('.search-status'), '1 result');
  });

  await t.test('should serve the stored site at once on a restart with nothing changed', async (t) => {
    // The build of the restarted preview cannot write anything until released.
    const writes = latch();
    const holding: ObjectStore = { ...store, put: async (key, bytes, opts) => { await writes.held; await store.put(key, bytes, opts); } };
    const again = await openWorkingTree(dir);
    const restarted = await startDevServer({ store: holding, session: (siteUrl) => createDevSession({ tree: again, store: holding, siteUrl, compiler: real }) });
    t.teardown(() => restarted.close());
    let done = false;
    void restarted.session.ready.then(() => { done = true; });
    const res = await fetch(`${restarted.url}/reference/glossary`);
    const body = await res.text();
    t.notOk(done, 'answered while its first build is held');
    t.equal(res.status, 200);
    t.equal(body, fs.readFileSync(path.join(cacheDir, 'reference/glossary/index.html'), 'utf8').replace('</body>', '<script type="module" src="/_folio/dev/client.js"></script></body>'), 'the stored page');
    writes.release();
    await restarted.session.idle();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-site', import.meta.url));

t.teardown(closePagefind);

t.test('islands', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: 'https://acme.example', compiler, year: 2025 });
  t.equal(res.pagesFailed, 0);
  const html = (p: string) => fs.readFileSync(path.join(out, p), 'utf8');
  const { server, browser } = await browseStatic(t, out);

  t.test('should mark hook components as islands and ship one module for the page', async (t) => {
    const page = html('guides/interactive/index.html');
    t.match(page, '<folio-island data-c="Counter" data-p="{&quot;start&quot;:3}"><button class="px-3 py-1 font-semibold">Clicked 3 times</button></folio-island>');
    t.match(page, '<folio-island data-c="Greeting" data-p="{}"><p class="text-sm italic">Hello, reader.</p></folio-island>');
    const scripts = [...page.matchAll(/<script type="module" src="(\/_folio\/islands\/[0-9a-f]{16}\.js)"><\/script>/g)].map((m) => m[1]);
    t.equal(scripts.length, 1);
    const bundle = fs.readFileSync(path.join(out, scripts[0]), 'utf8');
    t.notMatch(bundle, 'from"', 'one self-contained module: Preact is bundled in');
  });

  t.test('should ship no extra script with a page without hook components', async (t) => {
    for (const p of ['index.html', 'quickstart/index.html', 'changelog/index.html', 'api/auth/index.html']) t.notMatch(html(p), '/_folio/islands/', p);
    t.match(html('guides/components/index.html'), '<folio-island data-c="Counter" data-p="{}"><span class="counter">2</span></folio-island>', 'a page defining its own hook component does');
  });

  t.test('should hydrate the counter in Chromium so that a click increments it', async (t) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/guides/interactive`);
    const button = page.locator('folio-island[data-c="Counter"] button');
    await page.waitForSelector('folio-island[data-c="Counter"][data-hydrated]', { state: 'attached' });
    await button.click();
    await button.click();
    t.equal(await button.textContent(), 'Clicked 5 times');
    t.equal(await page.locator('folio-island[data-c="Greeting"] p').textContent(), 'Hello, reader.');
    t.same(errors, []);
  });
});

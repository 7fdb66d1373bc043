import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { startDev } from '../../src/dev/dev-command.ts';
import { repoFromFolder, tempDir } from '../helpers/git-repo.ts';

const example = fileURLToPath(new URL('../../examples/acme-docs', import.meta.url));

t.test('dev server', async (t) => {
  // A committed repository plus an uncommitted page: the preview shows the working tree.
  const { dir } = repoFromFolder(example, path.join(tempDir(), 'acme'));
  fs.writeFileSync(path.join(dir, 'docs/draft.mdx'), '---\ntitle: Draft\n---\n\nNot committed yet.\n');
  const dev = await startDev({ dir, port: 0, cacheDir: tempDir() });
  t.teardown(() => dev.close());
  await dev.session.ready;
  const get = (p: string, headers: Record<string, string> = {}) => fetch(dev.url + p, { headers, redirect: 'manual' });
  const quickstart = path.join(dir, 'docs/quickstart.mdx');
  const original = fs.readFileSync(quickstart, 'utf8');

  await t.test('should serve the working tree with clean URLs, redirects, exports and llms.txt', async (t) => {
    const draft = await get('/draft');
    t.equal(draft.status, 200);
    t.match(await draft.text(), /<p>Not committed yet\.<\/p>[\s\S]*<script type="module" src="\/_folio\/dev\/client\.js"><\/script><\/body>/);
    const moved = await get('/getting-started');
    t.equal(moved.status, 308);
    t.equal(moved.headers.get('location'), '/quickstart');
    t.equal(await (await get('/draft.md')).text(), '# Draft\n\nNot committed yet.\n');
    t.equal(await (await get('/draft', { Accept: 'text/markdown' })).text(), '# Draft\n\nNot committed yet.\n');
    t.match(await (await get('/llms.txt')).text(), /^# Acme Rockets\n\n> Build, launch and track rockets with the Acme API\.\n/);
    t.equal((await get('/_folio/manifest.json')).status, 404, 'the builder state is not served');
    t.equal((await get('/nowhere')).status, 404);
    const events = await get('/_folio/dev/events');
    t.equal(events.headers.get('content-type'), 'text/event-stream');
    const reader = events.body!.getReader();
    t.equal(Buffer.from((await reader.read()).value!).toString(), 'retry: 500\nevent: problems\ndata: {"type":"problems","problems":[]}\n\n');
    await reader.cancel();
  });

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(`${dev.url}/quickstart`);
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Quickstart');
  // Set on this document only: a reload would lose it.
  await page.evaluate(() => { (window as unknown as { devMarker: number }).devMarker = 1; });

  await t.test('should show an edit without a reload', async (t) => {
    fs.writeFileSync(quickstart, `${original}\nThe zebracorn launch pad is ready.\n`);
    await page.waitForFunction(() => document.querySelector('.prose')?.textContent?.includes('zebracorn launch pad'));
    t.equal(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker), 1, 'same document, no reload');
  });

  await t.test('should show an MDX error with its position over the last good page, then clear it', async (t) => {
    fs.writeFileSync(quickstart, `${original}\nThe zebracorn launch pad is ready.\n\n<Note>\nunclosed\n`);
    await page.waitForSelector('#folio-dev-overlay');
    const text = await page.textContent('#folio-dev-overlay .folio-dev-problem');
    t.match(text, /^docs\/quickstart\.mdx:\d+:\d+\n.*Note/);
    t.ok(await page.evaluate(() => document.querySelector('.prose')?.textContent?.includes('zebracorn launch pad')), 'the last good page stays');
    fs.writeFileSync(quickstart, `${original}\nThe zebracorn launch pad is fixed.\n`);
    await page.waitForSelector('#folio-dev-overlay', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('.prose')?.textContent?.includes('zebracorn launch pad is fixed'));
    t.equal(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker), 1);
  });

  await t.test('should find a word added after start with search', async (t) => {
    await dev.session.idle();
    await page.click('.search-open');
    await page.fill('.search-input', 'zebracorn');
    await page.waitForFunction(() => document.querySelector('.search-title')?.textContent === 'Quickstart');
    t.equal(await page.textContent('.search-status'), '1 result');
  });

  await t.test('should report a broken docs.json in the overlay and recover', async (t) => {
    const config = path.join(dir, 'docs.json');
    const good = fs.readFileSync(config, 'utf8');
    fs.writeFileSync(config, good.replace('"theme": "larch"', '"theme": "lorch"'));
    await page.waitForSelector('#folio-dev-overlay');
    t.equal(await page.textContent('#folio-dev-overlay .folio-dev-problem'), 'docs.json: theme: Unexpected "lorch"; expected one of cedar, obsidian, birch, oak, cypress, ember, larch, sage, slate, terminal');
    fs.writeFileSync(config, good.replace('"theme": "larch",', '"theme": "larch"'));
    await page.waitForFunction(() => /^docs\.json:\d+:\d+: /.test(document.querySelector('#folio-dev-overlay .folio-dev-problem')?.textContent ?? ''));
    t.match(await page.textContent('#folio-dev-overlay .folio-dev-problem'), /^docs\.json:5:3: Unexpected/, 'a syntax error has its position');
    fs.writeFileSync(config, good);
    await page.waitForSelector('#folio-dev-overlay', { state: 'detached' });
  });
});

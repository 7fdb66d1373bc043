import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { startDev } from '../../src/dev/dev-command.ts';
import { MANIFEST_KEY } from '../../src/state/manifest.ts';
import { tempDir } from '../helpers/git-repo.ts';

const example = fileURLToPath(new URL('../../examples/acme-docs', import.meta.url));

t.test('dev first start', async (t) => {
  // A copy at a new path and a new cache folder: nothing of the site is built yet.
  const dir = path.join(tempDir(), 'acme');
  fs.cpSync(example, dir, { recursive: true });
  const cacheDir = tempDir();
  const dev = await startDev({ dir, port: 0, cacheDir });
  t.teardown(() => dev.close());
  // The manifest is the last thing a build writes, and `ready` settles after it.
  const manifest = path.join(cacheDir, MANIFEST_KEY);
  const builtAtStart = fs.existsSync(manifest);
  let built = false;
  void dev.session.ready.then(() => { built = true; });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(dev.url + p, { headers, redirect: 'manual' })
    .then(async (res) => ({ status: res.status, location: res.headers.get('location'), body: await res.text(), builtWhenAnswered: built }));
  // Requested the moment the preview is ready, while its first build runs.
  const early = Promise.all([get('/quickstart'), get('/getting-started'), get('/quickstart.md'), get('/llms.txt'), get('/nowhere')]);
  // Saved during the first build.
  const glossary = path.join(dir, 'docs/reference/glossary.md');
  fs.appendFileSync(glossary, '\nThe quasarwing gantry holds the rocket before launch.\n');

  await t.test('should be ready before the first build is done', async (t) => {
    t.notOk(builtAtStart, 'startDev returned while the first build had not finished');
  });

  await t.test('should answer requests made right after start, what is not made early with the finished site, never a 404 for what exists', async (t) => {
    const [page, moved, markdown, llms, missing] = await early;
    t.equal(page.status, 200);
    // The page may be made early (dev-early-page.test.ts holds the build to see it); the rest waits.
    t.same([moved, markdown, llms, missing].map((r) => r.builtWhenAnswered), [true, true, true, true], 'answered once the first build was done');
    t.ok(fs.existsSync(manifest));
    t.equal(moved.status, 308);
    t.equal(moved.location, '/quickstart');
    t.equal(markdown.status, 200);
    t.match(markdown.body, /^# Quickstart\n/);
    t.match(llms.body, /^# Acme Rockets\n/);
    t.equal(missing.status, 404);
    t.match(missing.body, /<html/, 'the site\'s own 404 page');
    await dev.session.idle();
    // Complete: the same bytes as the page served once everything is built and idle (a page
    // made early differs in its client's tag alone, which asks for the built page later).
    const settled = await get('/quickstart');
    t.equal(page.body.replace('/_folio/dev/client.js?early', '/_folio/dev/client.js'), settled.body);
    t.match(page.body, /<nav class="sidebar-nav"[\s\S]*href="\/guides\/snippets"/, 'with the whole sidebar');
  });

  await t.test('should keep an edit saved during the first build', async (t) => {
    await dev.session.idle();
    t.match((await get('/reference/glossary')).body, /quasarwing gantry/);
  });

  await t.test('should find words with search once the background build is done', async (t) => {
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${dev.url}/quickstart`);
    await dev.session.idle();
    await page.click('.search-open');
    await page.fill('.search-input', 'quasarwing');
    await page.waitForFunction(() => document.querySelector('.search-title')?.textContent === 'Glossary');
    t.equal(await page.textContent('.search-status'), '1 result');
  });

  await t.test('should report a broken docs.json once, before the first build, and answer requests after it', async (t) => {
    const broken = path.join(tempDir(), 'broken');
    fs.cpSync(example, broken, { recursive: true });
    const config = path.join(broken, 'docs.json');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('"theme": "larch"', '"theme": "lorch"'));
    const lines: string[] = [];
    const preview = await startDev({ dir: broken, port: 0, cacheDir: tempDir(), log: (l) => lines.push(l) });
    t.teardown(() => preview.close());
    const message = 'docs.json: theme: Unexpected "lorch"; expected one of cedar, obsidian, birch, oak, cypress, ember, larch, sage, slate, terminal';
    t.same(preview.session.problems(), [{ message }], 'known when startDev returns');
    t.same(lines, [`error: ${message}`]);
    const res = await fetch(`${preview.url}/quickstart`);
    t.equal(res.status, 404);
    t.equal(await res.text(), 'Not found (no build has succeeded yet: see the problems in the terminal)\n');
    await preview.session.idle();
    t.same(lines, [`error: ${message}`], 'the build finds the same problem and does not print it again');
  });

  await t.test('should keep serving its last build when the folder it watches is removed', async (t) => {
    const doomed = path.join(tempDir(), 'doomed');
    fs.cpSync(example, doomed, { recursive: true });
    const lines: string[] = [];
    const preview = await startDev({ dir: doomed, port: 0, cacheDir: tempDir(), log: (l) => lines.push(l) });
    t.teardown(() => preview.close());
    await preview.session.ready;
    fs.rmSync(doomed, { recursive: true, force: true });
    // The removal reaches the session as changes; its next build finds no docs.json.
    while (!lines.some((l) => l.includes('docs.json'))) await new Promise((r) => setTimeout(r, 20));
    t.match(lines.find((l) => l.includes('docs.json')), `error: ENOENT: no such file or directory, open '${path.join(doomed, 'docs.json')}'`);
    const res = await fetch(`${preview.url}/quickstart`);
    t.equal(res.status, 200, 'the last build is still served');
  });
});

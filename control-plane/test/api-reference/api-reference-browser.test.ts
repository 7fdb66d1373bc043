/**
 * The platform's docs can document the platform: its own `/v1/openapi.json` built into API
 * reference pages, served by the site server, and an operation tried from the page in Chromium
 * against the running API (cross-origin, so the API's CORS answer is exercised too).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { build, prefixStore } from '@folio/builder';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

t.test('the Try it panel of a generated API reference page', async (t) => {
  const tp = await startTestPlatform();
  const browser = await launchBrowser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-api-try-'));
  t.teardown(async () => { await browser.close(); await tp.close(); fs.rmSync(dir, { recursive: true, force: true }); });
  const project = (await tp.api('POST', '/projects', { name: 'Reference', slug: 'reference' })).body;

  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Folio API', api: { openapi: 'openapi.json' } }));
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nThe Folio API.\n');
  fs.writeFileSync(path.join(dir, 'openapi.json'), await (await fetch(`${tp.p.cp.apiUrl}/openapi.json`)).text());
  const origin = `http://reference.localhost:${tp.p.site.port}`;
  const result = await build({ source: { kind: 'dir', dir }, store: prefixStore(tp.p.store, `sites/${project.id}/`), siteUrl: origin });
  t.equal(result.pagesFailed, 0);

  const page = await browser.newPage();
  const keys: string[] = [];
  page.on('request', (req) => { const auth = req.headers().authorization; if (auth) keys.push(auth); });

  t.test('should create a project with the visitor\'s key and show the answer', async (t) => {
    const res = await page.goto(`${origin}/api-reference/projects/create-a-project`);
    t.equal(res?.status(), 200);
    await page.waitForSelector('[data-api-try][data-ready]');
    t.equal(await page.inputValue('.api-try input[name=server]'), tp.p.cp.apiUrl, 'the base URL comes from the document\'s servers');
    await page.fill('.api-try input[name=key]', tp.key);
    await page.fill('.api-try textarea[name=body]', JSON.stringify({ name: 'Made from the docs', slug: 'from-docs' }));
    await page.click('.api-try-send');
    await page.waitForSelector('.api-try-status[data-status]');
    t.equal(await page.textContent('.api-try-status'), '201 Created');
    const shown = JSON.parse((await page.textContent('.api-try-body'))!);
    t.same([shown.name, shown.slug], ['Made from the docs', 'from-docs']);
    const listed = await tp.api('GET', '/projects');
    t.ok(listed.body.data.some((p: { slug: string }) => p.slug === 'from-docs'), 'the API has the project');
    t.same(keys, [`Bearer ${tp.key}`], 'the key went to the API once, in the Authorization header');
  });

  t.test('should show the API\'s error body for a request without a key, and keep the key nowhere', async (t) => {
    await page.goto(`${origin}/api-reference/projects/list-projects`);
    await page.waitForSelector('[data-api-try][data-ready]');
    await page.click('.api-try-send');
    await page.waitForSelector('.api-try-status[data-status]');
    t.equal(await page.textContent('.api-try-status'), '401 Unauthorized');
    t.same(JSON.parse((await page.textContent('.api-try-body'))!).error, 'unauthorized');
    const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]);
    t.same(stored, [0, 0, ''], 'nothing written to storage or cookies');
  });
});

/**
 * Inline AI in real Chromium: the extension mounted on a small page whose `/dashboard/api` is
 * the real control plane (through a proxy that adds the signed-in session), the model a stand-in.
 * A selection, Mod-j and "Shorten" show the suggestion as a diff (removed words struck through,
 * added words marked); Accept changes the text as one undoable edit; Reject leaves it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { parseEnv } from '../../src/env.ts';
import { launchBrowser } from '../helpers/dashboard-browser.ts';
import { startTestApi } from '../helpers/api.ts';
import { dashTenant } from '../helpers/dashboard.ts';
import { startModelStandIn } from './model-stand-in.ts';

t.test('inline AI in the browser', async (t) => {
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host, ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) });
  const api = await startTestApi({ env });
  t.teardown(() => api.close());
  const pro = await dashTenant(api, 'pro');
  const project = await api.project(await api.key(pro.orgId));
  await saveSettings(api.cp.m, env, pro.orgId, { base_url: model.url, model: 'writer-1' }, api.clock.now);

  const bundle = await build({ entryPoints: [fileURLToPath(new URL('./inline-ai-page.ts', import.meta.url))], bundle: true, write: false, format: 'esm', platform: 'browser', logLevel: 'silent' });
  const js = bundle.outputFiles[0].text;
  const apiOrigin = new URL(api.url).origin;
  // The page's server: the bundle, and /dashboard/api passed to the control plane as the signed-in writer.
  const server = http.createServer((req, res) => {
    if (req.url!.startsWith('/dashboard/api/')) {
      const headers: Record<string, string> = { cookie: pro.auth.cookie };
      for (const h of ['content-type', 'x-csrf-token', 'accept']) if (req.headers[h]) headers[h] = String(req.headers[h]);
      const up = http.request(`${apiOrigin}${req.url}`, { method: req.method, headers }, (r) => { res.writeHead(r.statusCode!, r.headers); r.pipe(res); });
      req.pipe(up);
      return;
    }
    if (req.url === '/page.js') { res.writeHead(200, { 'content-type': 'text/javascript' }).end(js); return; }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><meta charset="utf-8"><title>Inline AI</title><div id="editor"></div><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/?project=${project.id}`);
  await page.locator('.cm-content').waitFor();
  const doc = () => page.evaluate(() => (window as any).view.state.doc.toString() as string);
  const select = (text: string) => page.evaluate((s) => {
    const v = (window as any).view;
    const from = v.state.doc.toString().indexOf(s);
    v.dispatch({ selection: { anchor: from, head: from + s.length } });
    v.focus();
  }, text);
  const SENTENCE = 'Folio is a host for docs, from git. It deploys fast.';

  t.test('should show the suggestion as a diff and apply it on Accept as one undoable edit', async (t) => {
    model.script.push({ text: 'Folio hosts docs from Git. It deploys fast.' });
    await select(SENTENCE);
    await page.keyboard.press('Control+j');
    await page.getByRole('toolbar', { name: 'AI actions' }).getByRole('button', { name: 'Shorten' }).click();
    const suggestion = page.getByRole('group', { name: 'AI suggestion' });
    await suggestion.getByRole('button', { name: 'Accept' }).and(page.locator(':enabled')).waitFor();
    t.same(await page.locator('.cm-content del.cm-ai-deleted').allInnerTexts(), ['is a host for docs, ', 'git.'], 'removed words struck through in the text');
    t.same(await suggestion.locator('ins').allInnerTexts(), ['hosts docs ', 'Git.'], 'added words marked');
    t.equal(await suggestion.locator('.cm-ai-text').innerText(), 'Folio hosts docs from Git. It deploys fast.');
    t.equal(await doc(), `Intro.\n\n${SENTENCE}\n\nEnd.`, 'nothing changes before Accept');
    await suggestion.getByRole('button', { name: 'Accept' }).click();
    t.equal(await doc(), 'Intro.\n\nFolio hosts docs from Git. It deploys fast.\n\nEnd.');
    t.equal(await suggestion.count(), 0);
    await page.evaluate(() => (window as any).undo());
    t.equal(await doc(), `Intro.\n\n${SENTENCE}\n\nEnd.`, 'one undo restores the text');
    t.equal(model.requests.at(-1)!.body.messages[1].content, `<selection>\n${SENTENCE}\n</selection>`);
  });

  t.test('should leave the text as it was on Reject', async (t) => {
    model.script.push({ text: 'Something else entirely.' });
    await select('Intro.');
    // The small AI button on the selection (the plan includes inline AI) opens the same menu.
    await page.getByRole('button', { name: 'AI', exact: true }).click();
    await page.getByRole('toolbar', { name: 'AI actions' }).getByRole('button', { name: 'Rewrite' }).click();
    const suggestion = page.getByRole('group', { name: 'AI suggestion' });
    await suggestion.getByRole('button', { name: 'Accept' }).and(page.locator(':enabled')).waitFor();
    await suggestion.getByRole('button', { name: 'Reject' }).click();
    t.equal(await suggestion.count(), 0);
    t.equal(await doc(), `Intro.\n\n${SENTENCE}\n\nEnd.`);
    t.same(errors, []);
  });
});

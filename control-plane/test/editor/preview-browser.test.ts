/**
 * The live preview in real Chromium, embedded the way the editor embeds it: a dashboard page (its
 * own Content-Security-Policy in force) framing the preview URL in a sandboxed iframe. An edit
 * posted to the preview reaches the open frame without a reload; a page's own script (customer
 * code) runs in an opaque origin and can read neither the dashboard's document, its cookies nor
 * its API.
 */
import fs from 'node:fs';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import { launchBrowser } from '../helpers/dashboard-browser.ts';
import type { TestApi } from '../helpers/api.ts';
import { registerEditorPreviewRoutes } from '../../src/dashboard/editor-preview-routes.ts';
import { configureEditorPreviews } from '../../src/editor/preview/previews.ts';

const PROBE = `<!doctype html><html><head><title>Probe</title></head><body><p id="out">pending</p><script>
(async () => {
  const r = { origin: String(self.origin) };
  try { r.parent = String(parent.document.title); } catch (e) { r.parent = 'blocked'; }
  try { r.cookie = document.cookie; } catch (e) { r.cookie = 'blocked'; }
  try { r.storage = String(localStorage.length); } catch (e) { r.storage = 'blocked'; }
  try { const res = await fetch('/dashboard/api/session', { credentials: 'include' }); r.session = 'read ' + res.status + ' ' + (await res.text()).slice(0, 60); } catch (e) { r.session = 'blocked'; }
  try { const res = await fetch('/dashboard/api/projects', { credentials: 'include' }); r.projects = 'read ' + res.status; } catch (e) { r.projects = 'blocked'; }
  document.getElementById('out').textContent = JSON.stringify(r);
})();
</script></body></html>`;

const FILES: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', theme: 'mint', navigation: [{ group: 'Start', pages: ['index', 'guide'] }] }),
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
  'guide.mdx': '---\ntitle: Guide\n---\n\nFirst version of the guide.\n',
  'public/probe.html': PROBE,
};

const registered = fs.readFileSync(new URL('../../src/dashboard/editor-routes.ts', import.meta.url), 'utf8').includes('registerEditorPreviewRoutes(');

t.test('editor preview in the browser', async (t) => {
  const tp = await startTestPlatform({}, registered ? {} : { dashboard: { modules: [registerEditorPreviewRoutes] } });
  t.teardown(() => tp.close());
  configureEditorPreviews(tp.p.cp.deps, { fullBuildDelayMs: 200 });
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const owner = await addUser(api, tp.orgId, 'owner');
  const auth = await signIn(api, owner.email);
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `preview-b-${process.pid}` })).body;
  await (await tp.workingCopy(project.slug, FILES)).push();
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const preview = (content: string) => dash(api, 'POST', `/projects/${project.id}/editor/preview`, { auth, body: { path: 'guide.mdx', content } });
  const first = await preview('---\ntitle: Guide\n---\n\nTyped once.\n');
  t.equal(first.status, 200, first.text);

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'folio_session', value: auth.token, url: origin }]);
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/projects`);
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  const frameOf = async (url: string) => {
    await page.evaluate((src) => {
      document.querySelector('iframe#preview')?.remove();
      const frame = document.createElement('iframe');
      frame.id = 'preview';
      frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-forms');
      frame.src = src;
      frame.style.width = '800px';
      frame.style.height = '600px';
      document.body.append(frame);
    }, url);
    const handle = await page.waitForSelector('iframe#preview');
    const frame = (await handle.contentFrame())!;
    await frame.waitForLoadState('load');
    return frame;
  };

  t.test('should swap the page in the open frame when an edit is posted, without a reload', async (t) => {
    const frame = await frameOf(first.body.url);
    await frame.getByText('Typed once.').waitFor();
    t.match(await frame.locator('link[rel="stylesheet"]').first().getAttribute('href'), /^\/editor-preview\/[^/]+\/_folio\/theme-/);
    // A mark in the frame's window: a reload would lose it.
    await frame.evaluate(() => { (window as any).__kept = 'yes'; });
    // The dev client has connected to its events before the edit goes out.
    await page.waitForTimeout(500);
    const second = await preview('---\ntitle: Guide\n---\n\nTyped twice, seen live.\n');
    t.equal(second.body.url, first.body.url);
    await frame.getByText('Typed twice, seen live.').waitFor({ timeout: 30_000 });
    t.equal(await frame.evaluate(() => (window as any).__kept), 'yes', 'the frame was not reloaded');
    t.ok(await frame.evaluate(() => document.documentElement.hasAttribute('data-dev-swapped')));
    // A broken version leaves the last good page, with the problem shown over it.
    const broken = await preview('---\ntitle: Guide\n---\n\nBroken <Card text.\n');
    t.equal(broken.body.problems.length, 1);
    await frame.locator('#folio-dev-overlay').waitFor();
    t.match(await frame.locator('#folio-dev-overlay').textContent(), /guide\.mdx:5:/);
    t.ok(await frame.getByText('Typed twice, seen live.').isVisible());
    // A link inside goes to the other page under the same token.
    await frame.getByRole('link', { name: 'Home' }).first().click();
    await frame.waitForURL(/\/editor-preview\/[^/]+\/$/);
    await frame.getByText('Welcome.').waitFor();
  });

  t.test('should keep the page\'s own script from reading the dashboard', async (t) => {
    const probeUrl = first.body.url.replace(/\/guide$/, '/probe.html');
    const frame = await frameOf(probeUrl);
    await frame.waitForFunction(() => document.getElementById('out')?.textContent !== 'pending');
    const result = JSON.parse((await frame.locator('#out').textContent())!);
    t.same(result, { origin: 'null', parent: 'blocked', cookie: 'blocked', storage: 'blocked', session: 'blocked', projects: 'blocked' });
    // The dashboard's own page still holds its session: the frame saw nothing of it.
    t.equal(await page.evaluate(() => fetch('/dashboard/api/session').then((r) => r.status)), 200);
    t.same(errors, []);
  });
});

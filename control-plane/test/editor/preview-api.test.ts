/**
 * The web editor's live preview against a real platform on 127.0.0.1: a managed repository
 * pushed with `git`, `POST /editor/preview` as the dashboard calls it, and the capability URL it
 * answers served from `/editor-preview/<token>/…` (the site's theme, links under the token,
 * drafts of other pages, problems with line and column, the last good page kept), with exact
 * bodies for refusals, another organization, an API key and the free plan; then the preview's
 * lifetime (idle close, least recently used closed first).
 */
import fs from 'node:fs';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn, type DashboardAuth } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';
import { registerEditorPreviewRoutes } from '../../src/dashboard/editor-preview-routes.ts';
import { configureEditorPreviews, editorPreviews } from '../../src/editor/preview/previews.ts';
import { previewToken } from '../../src/editor/preview/preview-token.ts';
import { saveDraft } from '../../src/editor/drafts.ts';

const FILES: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', theme: 'maple', colors: { primary: '#0d9373' }, navigation: [{ group: 'Start', pages: ['index', 'guide'] }] }, null, 2),
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome. Read [the guide](/guide).\n',
  'guide.mdx': '---\ntitle: Guide\n---\n\nFirst version of the guide.\n\n```js\nconst answer = 42;\n```\n',
};

/** Until the preview's route is registered with the editor's, the test registers it. */
const registered = fs.readFileSync(new URL('../../src/dashboard/editor-routes.ts', import.meta.url), 'utf8').includes('registerEditorPreviewRoutes(');

t.test('editor preview', async (t) => {
  const tp = await startTestPlatform({}, registered ? {} : { dashboard: { modules: [registerEditorPreviewRoutes] } });
  t.teardown(() => tp.close());
  const deps = tp.p.cp.deps;
  configureEditorPreviews(deps, { fullBuildDelayMs: 200 });
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const owner = await addUser(api, tp.orgId, 'owner');
  const auth = await signIn(api, owner.email);
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `preview-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, FILES);
  await wc.push();
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const preview = (body: unknown, as: DashboardAuth = auth, id: string = project.id) => dash(api, 'POST', `/projects/${id}/editor/preview`, { auth: as, body });
  const get = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  let guideUrl = '';

  t.test('should show the typed text in the site\'s theme under a capability URL', async (t) => {
    const res = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nSecond version, typed in the editor.\n\n```js\nconst answer = 43;\n```\n' });
    t.equal(res.status, 200, res.text);
    t.same(res.body.problems, []);
    t.match(res.body.url, new RegExp(`^${origin}/editor-preview/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+/guide$`));
    guideUrl = res.body.url;
    const page = await get(guideUrl);
    t.equal(page.status, 200);
    t.match(page.text, /Second version, typed in the editor\./);
    t.notMatch(page.text, /First version/);
    // The site's look: its theme's stylesheet, name, navigation and highlighted code.
    const prefix = guideUrl.slice(origin.length, -'/guide'.length);
    t.match(page.text, new RegExp(`<link[^>]+href="${prefix}/_folio/theme-[a-z]+-[^"]+\\.css"`));
    t.match(page.text, /Acme Docs/);
    t.match(page.text, /class="shiki/);
    t.match(page.text, new RegExp(`href="${prefix}/"`), 'navigation stays under the token');
    t.notMatch(page.text, /\/editor-preview\/~/);
    t.match(page.text, new RegExp(`<script type="module" src="${prefix}/_folio/dev/client.js"></script></body>`));
    t.equal(page.headers.get('content-security-policy')!.split(', ')[0], 'sandbox allow-scripts allow-popups allow-forms');
    t.match(page.headers.get('content-security-policy'), `frame-ancestors 'self'; connect-src ${origin}${prefix}/; frame-src 'none'; form-action ${origin}${prefix}/`);
    t.equal(page.headers.get('cache-control'), 'no-store');
    t.equal(page.headers.get('x-robots-tag'), 'noindex');
    t.equal(page.headers.get('referrer-policy'), 'no-referrer');
    const css = await get(`${origin}${page.text.match(/href="([^"]+theme-[a-z]+-[^"]+\.css)"/)![1]}`);
    t.equal(css.status, 200);
    t.equal(css.headers.get('access-control-allow-origin'), '*');
    const client = await get(`${origin}${prefix}/_folio/dev/client.js`);
    t.match(client.text, /EventSource/);
    // The same URL for the next edit: the frame is updated in place.
    const again = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nThird version.\n' });
    t.equal(again.body.url, guideUrl);
    t.match((await get(guideUrl)).text, /Third version\./);
  });

  t.test('should open links to other pages under the token, with their drafts', async (t) => {
    await saveDraft(deps, project.id, owner.userId, { path: 'index.mdx', content: '---\ntitle: Home\n---\n\nThe home page\'s draft. Read [the guide](/guide).\n' });
    const prefix = guideUrl.slice(0, -'/guide'.length);
    let home = await get(`${prefix}/`);
    for (let i = 0; i < 100 && !home.text.includes('home page\'s draft'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      home = await get(`${prefix}/`);
    }
    t.match(home.text, /The home page&#39;s draft\.|The home page's draft\./);
    t.match(home.text, new RegExp(`href="${prefix.slice(origin.length)}/guide"`));
    // The Markdown export comes with the whole-site build that follows the edits.
    let md = await get(`${prefix}/guide.md`);
    for (let i = 0; i < 100 && !md.text.includes('Third version'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      md = await get(`${prefix}/guide.md`);
    }
    t.match(md.text, /Third version/);
    const missing = await get(`${prefix}/nowhere`);
    t.equal(missing.status, 404);
    t.equal(missing.headers.get('cache-control'), 'no-store');
  });

  t.test('should answer a compile error with its line and column and keep the last good page', async (t) => {
    const res = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nBroken <Card title="x" text.\n' });
    t.equal(res.status, 200, res.text);
    t.equal(res.body.url, guideUrl);
    t.equal(res.body.problems.length, 1);
    t.match(res.body.problems[0], { line: 5, column: Number, message: String });
    t.ok(res.body.problems[0].column > 1);
    t.match((await get(guideUrl)).text, /Third version\./, 'the last good page stays');
    const fixed = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nFixed version.\n' });
    t.same(fixed.body.problems, []);
    t.match((await get(guideUrl)).text, /Fixed version\./);
  });

  t.test('should build a new page', async (t) => {
    const res = await preview({ path: 'extra/new-page.mdx', content: '# A new page\n\nJust written.\n' });
    t.equal(res.status, 200, res.text);
    t.match(res.body.url, /\/extra\/new-page$/);
    t.match((await get(res.body.url)).text, /Just written\./);
  });

  t.test('should follow a push: the next preview is the new head with the drafts over it', async (t) => {
    await wc.write({ 'pushed.mdx': '# Pushed\n\nArrived by git push.\n' });
    await wc.push();
    const res = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nAfter the push.\n' });
    t.equal(res.status, 200, res.text);
    t.match((await get(res.body.url)).text, /After the push\./);
    const prefix = res.body.url.slice(0, -'/guide'.length);
    t.match((await get(`${prefix}/pushed`)).text, /Arrived by git push\./);
    t.match((await get(`${prefix}/`)).text, /The home page&#39;s draft\.|The home page's draft\./, 'drafts stay laid over the new head');
  });

  t.test('should answer forged, altered and expired tokens with 404', async (t) => {
    const token = guideUrl.split('/')[4]!;
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify([project.id, owner.userId, Date.now() + 3_600_000])).toString('base64url');
    const expired = await previewToken(deps.m, project.id, owner.userId, new Date(Date.now() - 3 * 3_600_000));
    for (const bad of [`${forged}.${mac}`, `${payload}.${mac!.slice(0, -2)}AA`, `${payload}`, 'x', expired]) {
      const res = await get(`${origin}/editor-preview/${bad}/guide`);
      t.same([res.status, res.text], [404, 'Not found\n'], bad);
    }
    const events = await get(`${origin}/editor-preview/${expired}/_folio/dev/events`);
    t.equal(events.status, 404);
    // A member who leaves loses the preview with the membership.
    const leaver = await addUser(api, tp.orgId, 'viewer');
    const theirs = await previewToken(deps.m, project.id, leaver.userId, new Date());
    t.equal((await get(`${origin}/editor-preview/${theirs}/guide`)).status, 200);
    await tp.p.cp.m.Membership.deleteOne({ org_id: tp.orgId, user_id: leaver.userId });
    t.same(await get(`${origin}/editor-preview/${theirs}/guide`).then((r) => [r.status, r.text]), [404, 'Not found\n']);
  });

  t.test('should refuse bad input, another organization and API keys', async (t) => {
    const bad = await preview({ path: '../etc/passwd', content: 'x' });
    t.same([bad.status, bad.body], [400, { error: 'invalid_path', message: 'path must be a repository path such as guide/intro.mdx: no leading slash, no . or .. segments, no backslashes' }]);
    const extra = await preview({ path: 'a.mdx', content: 'x', more: 1 });
    t.equal(extra.status, 400);
    t.equal(extra.body.error, 'invalid_request');
    const big = await preview({ path: 'a.mdx', content: 'x'.repeat(1024 * 1024 + 1) });
    t.same([big.status, big.body], [413, { error: 'payload_too_large', message: 'Request body exceeds the 1048576 byte limit' }]);
    const other = await tp.newOrg(`other-${process.pid}`);
    const stranger = await signIn(api, (await addUser(api, other.orgId, 'owner')).email);
    const cross = await preview({ path: 'guide.mdx', content: 'x' }, stranger);
    t.same([cross.status, cross.body], [404, { error: 'not_found', message: 'project not found' }]);
    const keyed = await fetch(`${origin}/dashboard/api/projects/${project.id}/editor/preview`, { method: 'POST', headers: { authorization: `Bearer ${tp.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ path: 'guide.mdx', content: 'x' }) });
    t.same([keyed.status, await keyed.json()], [401, { error: 'unauthorized', message: 'The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys' }]);
    const noCsrf = await dash(api, 'POST', `/projects/${project.id}/editor/preview`, { auth, noCsrf: true, body: { path: 'guide.mdx', content: 'x' } });
    t.equal(noCsrf.status, 403);
    const viewer = await signIn(api, (await addUser(api, tp.orgId, 'viewer')).email);
    const read = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nSeen by a viewer.\n' }, viewer);
    t.equal(read.status, 200, 'a viewer may preview (projects.read)');
  });

  t.test('should give the free plan the preview, close idle previews and the least recently used first', async (t) => {
    const free = await tp.newOrg(`free-${process.pid}`);
    await tp.p.cp.m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    const freeAuth = await signIn(api, (await addUser(api, free.orgId, 'owner')).email);
    const freeProject = (await tp.api('POST', '/projects', { name: 'Free', slug: `free-${process.pid}` }, free.key)).body;
    const fwc = await tp.workingCopy(freeProject.slug, FILES, free.key);
    await fwc.push();
    const previews = configureEditorPreviews(deps, { max: 1 });
    t.same(previews.running(), [project.id]);
    const res = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nOn the free plan.\n' }, freeAuth, freeProject.id);
    t.equal(res.status, 200, res.text);
    t.match((await get(res.body.url)).text, /On the free plan\./);
    t.same(previews.running(), [freeProject.id], 'the least recently used preview was closed');
    const memory = previews.memory()[freeProject.id]!;
    t.ok(memory > 20 * 1024 * 1024, `a running preview's memory is counted (${Math.round(memory / 1048576)} MB)`);
    configureEditorPreviews(deps, { idleMs: 300 });
    // The new idle time applies from the next request.
    await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nStill free.\n' }, freeAuth, freeProject.id);
    for (let i = 0; i < 50 && previews.running().length; i++) await new Promise((r) => setTimeout(r, 100));
    t.same(previews.running(), [], 'closed after its idle time');
    t.same(previews.memory(), {});
    // Its last build is still served; the next edit starts it again.
    t.match((await get(res.body.url)).text, /Still free\./);
    const back = await preview({ path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nBack again.\n' }, freeAuth, freeProject.id);
    t.equal(back.status, 200, back.text);
    t.match((await get(back.body.url)).text, /Back again\./);
    t.equal(editorPreviews(deps), previews);
  });
});

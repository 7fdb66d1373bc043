import t from 'tap';
import { setSitePassword, sitePasswordView } from '../../src/sites/password-settings.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

t.test('site password protection', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const m = tp.p.cp.m;
  const ctx = () => ({ m, now: new Date(), upgradeUrl: 'https://folio.dev/pricing' });

  const project = (await tp.api('POST', '/projects', { name: 'Secret Docs', slug: 'secret-docs' })).body;
  const other = (await tp.api('POST', '/projects', { name: 'Open Docs', slug: 'open-docs' })).body;
  for (const [slug, id] of [['secret-docs', project.id], ['open-docs', other.id]]) {
    const wc = await tp.workingCopy(slug, { 'docs.json': JSON.stringify({ name: slug }), 'docs/index.mdx': page('Home', 'Classified welcome.'), 'docs/guide.mdx': page('Guide', 'The hidden guide.') });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? '');
  }
  const keys = (await tp.p.store.list(`sites/${project.id}/`)).map((k) => k.replace(`sites/${project.id}/`, ''));
  const searchFile = keys.find((k) => k.startsWith('_pagefind/'));
  t.ok(searchFile, 'the site has search files');

  await setSitePassword(ctx(), tp.orgId, project.id, 'open sesame');
  const every: [string, Record<string, string>][] = [
    ['/', {}], ['/guide', {}], ['/llms.txt', {}], ['/llms-full.txt', {}], ['/guide.md', {}],
    ['/guide', { accept: 'text/markdown' }], [`/${searchFile}`, {}], ['/sitemap.xml', {}], ['/no-such-page', {}],
  ];

  t.test('should answer the form, privately, for every kind of file without the cookie', async (t) => {
    for (const [path, headers] of every) {
      const res = await tp.site('secret-docs', path, headers);
      t.equal(res.status, 401, path);
      t.match(res.headers.get('content-type'), /^text\/html/, path);
      t.match(res.body, '<title>Secret Docs — password required</title>', path);
      t.match(res.body, '<span class="brand-name">secret-docs</span>', `${path}: in the site's theme, named as its header names it`);
      t.match(res.body, /<form method="post" action="\/_folio\/password">/, path);
      t.notMatch(res.body, /Classified|hidden guide/, path);
      t.equal(res.headers.get('cache-control'), 'private, no-store', path);
      t.equal(res.headers.get('x-robots-tag'), 'noindex', path);
    }
  });

  t.test('should refuse the assistant and MCP with a JSON error', async (t) => {
    for (const path of ['/_folio/assistant', '/mcp']) {
      const res = await tp.site('secret-docs', path, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'guide?' }] }) });
      t.equal(res.status, 401, path);
      t.same(JSON.parse(res.body), { error: 'password_required', message: 'This site is password protected; sign in at /_folio/password first' }, path);
    }
  });

  t.test('should keep other sites public', async (t) => {
    const res = await tp.site('open-docs', '/guide');
    t.equal(res.status, 200);
    t.match(res.body, /The hidden guide/);
    t.notMatch(res.headers.get('cache-control') ?? '', /private/);
  });

  let cookie = '';
  t.test('should refuse a wrong password and sign in with the right one', async (t) => {
    const form = (password: string) => new URLSearchParams({ password, next: '/guide' }).toString();
    const wrong = await tp.site('secret-docs', '/_folio/password', { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: form('guess') });
    t.equal(wrong.status, 401);
    t.match(wrong.body, /That password is not right; try again/);
    t.equal(wrong.headers.get('set-cookie'), null);
    const right = await tp.site('secret-docs', '/_folio/password', { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: form('open sesame') });
    t.equal(right.status, 303);
    t.equal(right.headers.get('location'), '/guide');
    t.match(right.headers.get('set-cookie'), /^folio_site_auth=\d+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Lax$/);
    cookie = right.headers.get('set-cookie')!.split(';')[0];
    const offsite = await tp.site('secret-docs', '/_folio/password', { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: new URLSearchParams({ password: 'open sesame', next: '//evil.example/' }).toString() });
    t.equal(offsite.headers.get('location'), '/', 'never redirects off the site');
  });

  t.test('should serve every kind of file with the cookie, never to a shared cache', async (t) => {
    for (const [path, headers] of every.filter(([p]) => p !== '/no-such-page')) {
      const res = await tp.site('secret-docs', path, { ...headers, cookie });
      t.equal(res.status, 200, path);
      t.equal(res.headers.get('cache-control'), 'private, no-store', path);
      t.match(res.headers.get('vary'), /Cookie/, path);
    }
    t.match((await tp.site('secret-docs', '/guide', { cookie })).body, /The hidden guide/);
    t.equal((await tp.site('secret-docs', '/no-such-page', { cookie })).status, 404);
    const mcp = await tp.site('secret-docs', '/mcp', { cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    t.equal(mcp.status, 200, 'MCP answers a signed-in visitor');
  });

  t.test('should not accept the cookie on another site or a forged one', async (t) => {
    const forged = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    t.equal((await tp.site('secret-docs', '/', { cookie: forged })).status, 401);
    await setSitePassword(ctx(), tp.orgId, other.id, 'another one');
    t.equal((await tp.site('open-docs', '/', { cookie })).status, 401, 'a cookie opens one project only');
  });

  t.test('should sign everyone out when the password changes', async (t) => {
    await new Promise((r) => setTimeout(r, 5)); // a new set_at millisecond
    await setSitePassword(ctx(), tp.orgId, project.id, 'new secret words');
    t.equal((await tp.site('secret-docs', '/guide', { cookie })).status, 401);
  });

  t.test('should keep protecting after a downgrade, with read-only settings', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { pending_plan: 'free', pending_plan_at: new Date(Date.now() - 1000) } });
    t.equal((await tp.site('secret-docs', '/guide')).status, 401, 'still protected');
    const err = await setSitePassword(ctx(), tp.orgId, project.id, 'changed later').catch((e) => e);
    t.same([err.status, err.code, err.message, err.extra], [402, 'plan_required', 'The Password-protected sites feature needs the Pro plan or higher', { upgrade_url: 'https://folio.dev/pricing' }]);
    const view = await sitePasswordView(ctx(), tp.orgId, (await m.Project.findById(project.id).lean())!);
    t.same({ ...view, set_at: typeof view.set_at }, { enabled: true, set_at: 'string', editable: false });
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } });
  });

  t.test('should rate-limit password attempts per visitor', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await tp.site('secret-docs', '/_folio/password', { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: 'password=nope' });
      statuses.push(res.status);
      if (res.status === 429) {
        t.match(res.headers.get('retry-after'), /^\d+$/);
        t.match(res.body, /Too many attempts; try again in \d+ s/);
      }
    }
    // Earlier tests spent 3 attempts from this address on this site: 7 more are allowed.
    t.same(statuses, [401, 401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
  });
});

/**
 * The sign-in, refusal and password pages in the site's own theme, made from the live build's
 * public 404 page: the header names the site with its logo, the theme's stylesheets are linked
 * and load without a session or password (`full` included), no gated page is named, nothing runs,
 * and the form still leads where it did. In Chromium, the button wears the site's primary colour
 * and the logo loads. A site without a live build keeps the plain page.
 */
import t from 'tap';
import { setReaderAuth } from '../../src/sites/reader-auth/reader-settings.ts';
import { setSitePassword } from '../../src/sites/password-settings.ts';
import { launchBrowser } from '../helpers/dashboard-browser.ts';
import { JWT_SETTINGS, SITE_FILES, startReaderSite } from './reader-site.ts';

const PRIMARY = '#0a7d5c';
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="40" height="20" fill="#0a7d5c"/></svg>\n';
const GATED = /MEMBERMARKQZ|PARTNERMARKQZ|STAFFMARKQZ|Members|Partner|Staff/;
const FILES: Record<string, string> = {
  ...SITE_FILES,
  'docs.json': JSON.stringify({ ...JSON.parse(SITE_FILES['docs.json']), logo: '/logo.svg', colors: { primary: PRIMARY } }),
  'docs/logo.svg': LOGO,
};

/** The root-relative stylesheet links of a page. */
const stylesheets = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="(\/[^"]+)"/g)].map((m) => m[1]);

t.test('themed sign-in and password pages', async (t) => {
  const site = await startReaderSite({}, {}, {}, FILES);
  t.teardown(() => site.close());
  const { tp } = site;
  const m = tp.p.cp.m;
  const stored = await tp.p.store.get(`sites/${site.project.id}/404.html`);
  const notFound = Buffer.from(stored ?? []).toString('utf8');
  const themeCss = stylesheets(notFound);

  t.test('the sign-in page wears the theme of the public 404 and names no gated page', async (t) => {
    t.ok(themeCss.length > 0, 'the 404 links the theme stylesheet');
    t.match(notFound, 'data-folio-slot="content"', 'the builder marks the 404\'s main content');
    const res = await site.get('/_folio/sign-in?next=/members');
    const html = res.body.toString('utf8');
    t.equal(res.status, 200);
    t.match(html, /<header[^>]*>[\s\S]*Gated Docs[\s\S]*<\/header>/, 'the header names the site');
    t.match(html, '<img class="logo logo-light" src="/logo.svg"', 'with its logo');
    t.same(stylesheets(html), themeCss, 'the theme\'s stylesheets, as the 404 links them');
    t.match(html, '<title>Gated Docs — sign in</title>');
    t.match(html, '<meta name="robots" content="noindex">');
    t.match(html, 'href="/_folio/sign-in/start?next=%2Fmembers"', 'the button leads where it did');
    t.notMatch(html, GATED, 'no gated page is named');
    t.notMatch(html, /<script|<nav|Page not found/, 'no script, no navigation list, nothing of the 404 itself');
    t.match(String(res.headers['content-security-policy']), /script-src 'none'.*form-action 'self'/);
    t.same([res.headers['cache-control'], res.headers['x-robots-tag']], ['private, no-store', 'noindex']);
  });

  t.test('a refusal is themed too, with the reason escaped', async (t) => {
    const res = await site.get('/_folio/auth/jwt?token=not.a.token&next=/members');
    const html = res.body.toString('utf8');
    t.equal(res.status, 401);
    t.match(html, '<p class="error" role="alert">The sign-in token is not a valid JWT.</p>');
    t.match(html, '<img class="logo logo-light" src="/logo.svg"');
    t.notMatch(html, GATED);
  });

  t.test('full: the page\'s own files load without a session, nothing else does', async (t) => {
    await site.configure({ ...JWT_SETTINGS, scope: 'full' });
    for (const path of [...themeCss, '/logo.svg']) {
      const res = await site.get(path);
      t.equal(res.status, 200, path);
    }
    for (const path of ['/', '/open', '/members', '/members.md', '/llms.txt']) {
      const res = await site.get(path);
      t.equal(res.status, 303, `${path} still needs a session`);
    }
    const post = await site.get(themeCss[0], {}, 'POST', '');
    t.equal(post.status, 401, 'only GET and HEAD');
    await site.configure(JWT_SETTINGS);
  });

  t.test('in Chromium: the button has the site\'s primary colour and the logo loads', async (t) => {
    const origin = `http://${site.project.slug}.localhost:${tp.p.site.port}`;
    await site.configure({ ...JWT_SETTINGS, scope: 'full' });
    t.teardown(() => site.configure(JWT_SETTINGS));
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (msg) => { if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text()); });
    await page.goto(`${origin}/members`);
    t.equal(new URL(page.url()).pathname, '/_folio/sign-in');
    await page.waitForLoadState('load');
    const colour = await page.$eval('#sign-in', (el) => getComputedStyle(el).backgroundColor);
    t.equal(colour, 'rgb(10, 125, 92)', 'the theme\'s accent is the site\'s primary colour');
    const logo = await page.$eval('img.logo-light', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth);
    t.equal(logo, 40, 'the logo loaded');
    t.same(blocked, [], 'the policy blocks nothing the page needs');
  });

  t.test('the password form of a built site is themed; its files load without the password', async (t) => {
    const other = (await tp.api('POST', '/projects', { name: 'Secret Docs', slug: 'secret-docs' })).body;
    const wc = await tp.workingCopy('secret-docs', { 'docs.json': JSON.stringify({ name: 'Secret Docs', logo: '/logo.svg', colors: { primary: PRIMARY } }), 'docs/index.mdx': '---\ntitle: Classified home\n---\n\nClassified welcome.\n', 'docs/logo.svg': LOGO });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(other.id, (x) => x.commit_sha === sha && ['deployed', 'failed'].includes(x.status), 300_000);
    t.equal(d.status, 'deployed', d.error ?? '');
    const built = Buffer.from(await tp.p.store.get(`sites/${other.id}/404.html`) ?? []).toString('utf8');
    t.match(built, 'Classified home', 'the 404 it is made from names the page in its navigation');
    await setSitePassword({ m, now: new Date(), upgradeUrl: 'https://example.com/upgrade' }, tp.orgId, other.id, 'open sesame');
    const form = await tp.site('secret-docs', '/');
    t.equal(form.status, 401);
    t.match(form.body, '<img class="logo logo-light" src="/logo.svg"');
    t.match(form.body, '<h1>Password required</h1>');
    t.match(form.body, '<form method="post" action="/_folio/password">');
    t.match(form.body, '<input type="hidden" name="next" value="/">');
    t.notMatch(form.body, /Classified|<script|<nav/, 'no page title, no script, no navigation');
    const css = stylesheets(form.body);
    t.ok(css.length > 0);
    for (const path of [...css, '/logo.svg']) t.equal((await tp.site('secret-docs', path)).status, 200, `${path} without the password`);
    t.equal((await tp.site('secret-docs', '/index.md')).status, 401, 'a page\'s export still needs it');
    const signIn = await tp.site('secret-docs', '/_folio/password', { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: new URLSearchParams({ password: 'open sesame', next: '/' }).toString() });
    t.same([signIn.status, signIn.headers.get('location')], [303, '/'], 'the form signs in as before');
  });

  t.test('a site with no live build keeps the plain page', async (t) => {
    const fresh = (await tp.api('POST', '/projects', { name: 'Fresh Docs', slug: 'fresh-docs' })).body;
    await setSitePassword({ m, now: new Date(), upgradeUrl: 'https://example.com/upgrade' }, tp.orgId, fresh.id, 'open sesame');
    const form = await tp.site('fresh-docs', '/guide');
    t.equal(form.status, 401);
    t.match(form.body, '<h1>Fresh Docs</h1>');
    t.notMatch(form.body, /data-folio-slot|<link rel="stylesheet"/);
    t.equal(form.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    const readers = (await tp.api('POST', '/projects', { name: 'Fresh Readers', slug: 'fresh-readers' })).body;
    await setReaderAuth({ m, now: new Date(), upgradeUrl: 'https://example.com/upgrade' }, tp.orgId, readers.id, JWT_SETTINGS);
    const signIn = await tp.site('fresh-readers', '/_folio/sign-in');
    t.equal(signIn.status, 200);
    t.match(signIn.body, '<h1>Fresh Readers</h1>');
    t.notMatch(signIn.body, /data-folio-slot|<link rel="stylesheet"/);
  });

  t.test('another organization\'s host never gets this site\'s theme or files', async (t) => {
    const stranger = await tp.newOrg('stranger');
    const theirs = await tp.api('POST', '/projects', { name: 'Stranger Docs', slug: 'stranger-docs' }, stranger.key);
    t.equal(theirs.status, 201);
    for (const path of ['/', '/logo.svg', themeCss[0]]) {
      const res = await tp.site('stranger-docs', path);
      t.not(res.status, 200, path);
      t.notMatch(res.body, /Gated Docs|logo\.svg/, path);
    }
  });
});

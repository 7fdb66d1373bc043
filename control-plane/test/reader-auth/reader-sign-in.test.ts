/**
 * Readers signing in. The JWT handoff: a test-signed token gives a session with the groups of its
 * claim; expired, wrong-key, wrong-audience and malformed tokens are refused with a page that
 * says why; the way back stays on the site; a changed cookie is no session; `full` sends every
 * page (and the assistant and MCP) to sign-in. Then, in Chromium, an OpenID provider started
 * here (oidc-provider): sign in, read a gated page, sign out, and the page is refused again.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { SignJWT } from 'jose';
import { launchBrowser } from '../helpers/dashboard-browser.ts';
import { startOidcIdp } from '../helpers/oidc-idp.ts';
import { AUDIENCE, hsToken, JWT_SETTINGS, MARKERS, startReaderSite } from './reader-site.ts';

t.test('reader sign-in', async (t) => {
  const allowHosts: string[] = [];
  const site = await startReaderSite({}, {}, { services: { fetchAllowHosts: allowHosts } });
  t.teardown(() => site.close());
  const html = (b: Buffer) => b.toString('utf8');

  t.test('a valid token signs the reader in with the groups of its claim', async (t) => {
    const token = await hsToken({ sub: 'r1', groups: ['partners', 'unused'] });
    const res = await site.get(`/_folio/auth/jwt?token=${token}&next=${encodeURIComponent('/partner-guide?x=1')}`);
    t.equal(res.status, 303);
    t.equal(res.headers.location, '/partner-guide?x=1');
    const cookie = String(res.headers['set-cookie']);
    t.match(cookie, /^folio_reader=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/, 'HttpOnly, Lax, no Domain; not Secure over http');
    const session = cookie.split(';')[0];
    const page = await site.get('/partner-guide', { cookie: session });
    t.equal(page.status, 200);
    t.match(html(page.body), MARKERS.partners);
    t.same([page.headers['cache-control'], page.headers.vary], ['private, no-store', 'Accept, Cookie']);
    t.equal((await site.get('/staff-only', { cookie: session })).status, 404, 'another group\'s page is not found');
    const open = await site.get('/open');
    t.match(String(open.headers['cache-control']), /public|max-age|no-cache/, 'a public page without a session stays cacheable');
    t.notMatch(String(open.headers['cache-control']), /private/);
  });

  t.test('a token without groups reads what every signed-in reader reads', async (t) => {
    const res = await site.get(`/_folio/auth/jwt?token=${await hsToken({ sub: 'r2' })}`);
    const session = String(res.headers['set-cookie']).split(';')[0];
    t.match(html((await site.get('/members', { cookie: session })).body), MARKERS.members);
    t.equal((await site.get('/partner-guide', { cookie: session })).status, 404);
  });

  t.test('bad tokens are refused with a page that says why', async (t) => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const cases: [string, string][] = [
      [await hsToken({ sub: 'r', groups: ['partners'] }, { expiresIn: past }), 'The sign-in link has expired. Sign in again.'],
      [await hsToken({ sub: 'r' }, { secret: 'another secret that is long enough to sign with' }), 'The sign-in token is not signed with this site&#39;s key.'],
      [await hsToken({ sub: 'r' }, { audience: 'another-site' }), 'The sign-in token was made for another site (its audience does not match).'],
      [await new SignJWT({ sub: 'r' }).setProtectedHeader({ alg: 'HS256' }).setAudience(AUDIENCE).sign(new TextEncoder().encode(JWT_SETTINGS.verification_key)), 'The sign-in token has no expiry; this site accepts only tokens that expire.'],
      ['not.a.token', 'The sign-in token is not a valid JWT.'],
      ['', 'The sign-in link has no token.'],
    ];
    for (const [token, reason] of cases) {
      const res = await site.get(`/_folio/auth/jwt?token=${token}&next=/members`);
      t.equal(res.status, 401, reason);
      t.equal(res.headers['set-cookie'], undefined, 'no session');
      t.equal(res.headers['cache-control'], 'private, no-store');
      t.match(html(res.body), `<p class="error" role="alert">${reason}</p>`);
      t.match(html(res.body), 'href="/_folio/sign-in?next=%2Fmembers"', 'and the way to sign in again');
    }
  });

  t.test('the way back stays on the site', async (t) => {
    for (const next of ['//evil.example/x', 'https://evil.example/', '/%5Cevil.example']) {
      const res = await site.get(`/_folio/auth/jwt?token=${await hsToken({ sub: 'r' })}&next=${encodeURIComponent(next)}`);
      t.same([res.status, res.headers.location], [303, '/'], next);
    }
  });

  t.test('without a session: sign-in page, the customer\'s sign-in page, and no session from a changed cookie', async (t) => {
    const gated = await site.get('/members');
    t.same([gated.status, gated.headers.location], [303, '/_folio/sign-in?next=%2Fmembers']);
    const missing = await site.get('/no-such-page');
    t.same([missing.status, missing.headers.location], [303, '/_folio/sign-in?next=%2Fno-such-page'], 'a missing page answers the same: nothing is told');
    const page = await site.get('/_folio/sign-in?next=/members');
    t.equal(page.status, 200);
    t.match(html(page.body), 'href="/_folio/sign-in/start?next=%2Fmembers"');
    t.notMatch(html(page.body), /Members|Partner|Staff/);
    const start = await site.get('/_folio/sign-in/start?next=/members');
    const to = new URL(String(start.headers.location));
    t.same([start.status, to.origin + to.pathname], [303, 'https://login.example.com/sign-in']);
    t.equal(to.searchParams.get('redirect_uri'), `http://${site.project.slug}.localhost/_folio/auth/jwt?next=%2Fmembers`);
    const good = String((await site.get(`/_folio/auth/jwt?token=${await hsToken({ sub: 'r', groups: ['partners'] })}`)).headers['set-cookie']).split(';')[0];
    const [payload, signature] = good.slice('folio_reader='.length).split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    forged.g = ['staff'];
    const res = await site.get('/staff-only', { cookie: `folio_reader=${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}` });
    t.same([res.status, res.headers.location], [303, '/_folio/sign-in?next=%2Fstaff-only'], 'a changed cookie is no session');
    const out = await site.get('/_folio/sign-out', { cookie: good });
    t.same([out.status, out.headers.location, out.headers['set-cookie']], [303, '/', ['folio_reader=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax']]);
  });

  t.test('full: every page needs a session, the assistant and MCP too', async (t) => {
    await site.configure({ ...JWT_SETTINGS, scope: 'full' });
    const home = await site.get('/');
    t.same([home.status, home.headers.location], [303, '/_folio/sign-in?next=%2F']);
    const mcp = await site.get('/mcp', { 'content-type': 'application/json' }, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    t.same([mcp.status, JSON.parse(html(mcp.body))], [401, { error: 'sign_in_required', message: 'This site is for signed-in readers; sign in at /_folio/sign-in first' }]);
    const session = String((await site.get(`/_folio/auth/jwt?token=${await hsToken({ sub: 'r' })}`)).headers['set-cookie']).split(';')[0];
    const signedIn = await site.get('/', { cookie: session });
    t.same([signedIn.status, signedIn.headers['cache-control']], [200, 'private, no-store']);
    await site.configure(JWT_SETTINGS);
    t.equal((await site.get('/members', { cookie: session })).status, 303, 'changed settings end every session');
  });

  t.test('a branch preview follows the same rules', async (t) => {
    // Not execFileSync: the managed repository answers from this process, which must keep running.
    const run = (...args: string[]) => promisify(execFile)('git', args, { cwd: site.wc.dir });
    await run('checkout', '-q', '-b', 'draft');
    await site.wc.write({ 'docs/members.mdx': '---\ntitle: Members draft\n---\n\nDraft for members DRAFTMARKQZ.\n' });
    await run('push', '-q', 'origin', 'draft');
    const preview = await site.tp.waitForDeployment(site.project.id, (d) => d.branch === 'draft' && ['deployed', 'failed'].includes(d.status), 300_000);
    t.equal(preview.status, 'deployed', preview.error ?? '');
    const host = { host: `${site.project.slug}--draft.localhost` };
    const anonymous = await site.get('/members', host);
    t.same([anonymous.status, anonymous.headers.location], [303, '/_folio/sign-in?next=%2Fmembers']);
    t.notMatch(html((await site.get('/llms-full.txt', host)).body), /DRAFTMARKQZ|MEMBERMARKQZ/, 'the preview\'s public files hold no gated page');
    const session = String((await site.get(`/_folio/auth/jwt?token=${await hsToken({ sub: 'r' })}`, host)).headers['set-cookie']).split(';')[0];
    const read = await site.get('/members', { ...host, cookie: session });
    t.same([read.status, read.headers['cache-control']], [200, 'private, no-store']);
    t.match(html(read.body), 'DRAFTMARKQZ', 'a signed-in reader reads the branch\'s gated page');
    t.notMatch(html((await site.get('/members', { cookie: session })).body), 'DRAFTMARKQZ', 'production is unchanged');
  });

  t.test('in Chromium with an OpenID provider: sign in, read, sign out, refused', async (t) => {
    const origin = `http://${site.project.slug}.localhost:${site.tp.p.site.port}`;
    const idp = await startOidcIdp(`${origin}/_folio/auth/callback`);
    t.teardown(() => idp.close());
    allowHosts.push(idp.host);
    idp.user = 'reader@example.com';
    idp.groups = ['partners'];
    await site.configure({ mode: 'oidc', scope: 'partial', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, scopes: 'openid email groups' });
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${origin}/partner-guide`);
    t.equal(new URL(page.url()).pathname, '/_folio/sign-in', 'a gated page sends the reader to sign in');
    await page.click('#sign-in');
    await page.waitForURL(`${origin}/partner-guide`);
    t.match(await page.textContent('body'), MARKERS.partners, 'signed in, the partner page shows');
    const cookies = await page.context().cookies(origin);
    t.match(cookies.find((c) => c.name === 'folio_reader'), { httpOnly: true, sameSite: 'Lax', path: '/' });
    await page.goto(`${origin}/_folio/sign-out`);
    await page.goto(`${origin}/partner-guide`);
    t.equal(new URL(page.url()).pathname, '/_folio/sign-in', 'signed out, the page is refused');
    t.notMatch(await page.content(), MARKERS.partners);
  });
});

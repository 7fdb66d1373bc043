import t from 'tap';
import { bootstrap } from '../../src/server.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, PASSWORD, sessionTokenOf, signIn } from '../helpers/dashboard.ts';
import { PERMISSIONS } from '../../src/roles/roles.ts';

const NOT_SIGNED_IN = { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' };
const KEY_REFUSED = { error: 'unauthorized', message: 'The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys' };
const BAD_CREDENTIALS = { error: 'invalid_credentials', message: 'Email or password is incorrect' };
const HOUR = 3_600_000;

t.test('dashboard sessions', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());

  t.test('should print a one-time owner link on first start and let it be used once', async (t) => {
    const first = await bootstrap(api.cp.m, api.cp.deps.env, api.clock.now);
    t.equal(first?.org, 'default');
    t.equal(first?.created, true);
    const url = new URL(first!.claimUrl!);
    t.equal(url.origin, new URL(api.url).origin);
    t.equal(url.pathname, '/claim');
    const token = url.hash.replace('#token=', '');
    // A restart before the claim issues a new link; the old one stops working.
    const again = await bootstrap(api.cp.m, api.cp.deps.env, api.clock.now);
    t.equal(again?.created, false);
    const stale = await dash(api, 'POST', '/auth/claim', { body: { token, email: 'owner@example.com', password: PASSWORD } });
    t.same(stale.body, { error: 'invalid_token', message: 'This link is unknown, already used or expired; ask for a new one' });
    t.equal(stale.status, 400);
    const fresh = new URL(again!.claimUrl!).hash.replace('#token=', '');
    const short = await dash(api, 'POST', '/auth/claim', { body: { token: fresh, email: 'owner@example.com', password: 'short' } });
    t.same([short.status, short.body], [400, { error: 'invalid_request', message: 'Password must be at least 10 characters' }]);
    const badEmail = await dash(api, 'POST', '/auth/claim', { body: { token: fresh, email: 'nope', password: PASSWORD } });
    t.same([badEmail.status, badEmail.body], [400, { error: 'invalid_request', message: 'Email must be an email address' }]);
    const claimed = await dash(api, 'POST', '/auth/claim', { body: { token: fresh, email: ' Owner@Example.com ', name: 'Ada', password: PASSWORD } });
    t.equal(claimed.status, 200, claimed.text);
    t.same({ ...claimed.body, csrf_token: typeof claimed.body.csrf_token }, {
      user: { id: claimed.body.user.id, email: 'owner@example.com', name: 'Ada' },
      organization: { id: claimed.body.organization.id, name: 'Default organization', handle: 'default', plan: 'free' },
      role: 'owner', permissions: [...PERMISSIONS], csrf_token: 'string',
    });
    t.ok(sessionTokenOf(claimed));
    const reused = await dash(api, 'POST', '/auth/claim', { body: { token: fresh, email: 'other@example.com', password: PASSWORD } });
    t.same([reused.status, reused.body.error], [400, 'invalid_token']);
    t.equal(await bootstrap(api.cp.m, api.cp.deps.env), undefined, 'no link once the organization has an owner');
    const signedIn = await signIn(api, 'owner@example.com');
    t.equal((await dash(api, 'GET', '/session', { auth: signedIn })).body.role, 'owner');
  });

  t.test('should set an HttpOnly SameSite=Lax cookie, Secure only over HTTPS', async (t) => {
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const res = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    const cookie = res.headers.getSetCookie()[0];
    t.match(cookie, /^folio_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    // X-Forwarded-Proto is believed only behind a trusted proxy.
    const forged = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    t.notMatch(forged.headers.getSetCookie()[0], /Secure/);
    const proxied = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', TRUST_PROXY: 'true' }) });
    t.teardown(() => proxied.close());
    const o = await proxied.org();
    const u = await addUser(proxied, o.id);
    const secure = await dash(proxied, 'POST', '/auth/sign-in', { body: { email: u.email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    t.match(secure.headers.getSetCookie()[0], /; HttpOnly; SameSite=Lax; Secure$/);
  });

  t.test('should refuse wrong credentials with one answer for unknown accounts and wrong passwords', async (t) => {
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const wrong = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: 'not the password' } });
    t.same([wrong.status, wrong.body], [401, BAD_CREDENTIALS]);
    const unknown = await dash(api, 'POST', '/auth/sign-in', { body: { email: 'nobody@example.com', password: PASSWORD }, headers: {} });
    t.same([unknown.status, unknown.body], [401, BAD_CREDENTIALS]);
    t.equal(sessionTokenOf(wrong), undefined);
    const missing = await dash(api, 'POST', '/auth/sign-in', { body: { email } });
    t.same([missing.status, missing.body], [400, { error: 'invalid_request', message: 'Password is required' }]);
    const extra = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD, org_id: 'x' } });
    t.same([extra.status, extra.body], [400, { error: 'invalid_request', message: 'Org id is not expected here' }]);
    const form = await dash(api, 'POST', '/auth/sign-in', { raw: `email=${email}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.same([form.status, form.body], [415, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "application/x-www-form-urlencoded"; expected application/json' }]);
  });

  t.test('should replace the token at sign-in so a planted session is worthless', async (t) => {
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const before = await signIn(api, email);
    const after = await signIn(api, email, PASSWORD, { cookie: before.cookie });
    t.not(after.token, before.token);
    t.same((await dash(api, 'GET', '/session', { auth: before })).body, NOT_SIGNED_IN, 'the cookie sent at sign-in is ended');
    t.equal((await dash(api, 'GET', '/session', { auth: after })).status, 200);
  });

  t.test('should refuse API keys on every dashboard path and ignore the cookie on /v1', async (t) => {
    const { auth, orgId } = await dashTenant(api);
    const key = await api.key(orgId);
    for (const [method, path] of [['GET', '/session'], ['POST', '/auth/sign-in'], ['POST', '/auth/sign-out'], ['GET', '/no-such-route']]) {
      const res = await dash(api, method, path, { auth, headers: { authorization: `Bearer ${key}` }, body: method === 'GET' ? undefined : {} });
      t.same([res.status, res.body], [401, KEY_REFUSED], `${method} ${path}`);
    }
    const v1 = await api.request('GET', '/projects', { headers: { cookie: auth.cookie } });
    t.same([v1.status, v1.body], [401, { error: 'unauthorized', message: 'Missing Authorization header; expected "Bearer <API key>"' }]);
  });

  t.test('should need the CSRF token on state changes', async (t) => {
    const { auth } = await dashTenant(api);
    const none = await dash(api, 'POST', '/auth/sign-out', { auth, noCsrf: true });
    t.same([none.status, none.body], [403, { error: 'csrf_failed', message: 'Missing X-CSRF-Token header; expected the csrf_token of GET /dashboard/api/session' }]);
    const wrong = await dash(api, 'POST', '/auth/sign-out', { auth, headers: { 'x-csrf-token': 'x'.repeat(43) } });
    t.same([wrong.status, wrong.body], [403, { error: 'csrf_failed', message: 'X-CSRF-Token does not match this session; expected the csrf_token of GET /dashboard/api/session' }]);
    t.equal((await dash(api, 'GET', '/session', { auth })).status, 200, 'still signed in');
    const other = await dashTenant(api);
    const crossed = await dash(api, 'POST', '/auth/sign-out', { auth, headers: { 'x-csrf-token': other.auth.csrf } });
    t.equal(crossed.status, 403, 'another session\'s token does not do');
  });

  t.test('should slide the expiry with use and end sessions after the idle time or the maximum', async (t) => {
    const { auth } = await dashTenant(api);
    const start = api.clock.now;
    t.teardown(() => { api.clock.now = start; });
    // Idle limit 7 days, maximum 30 days (the defaults).
    for (let day = 6; day <= 24; day += 6) {
      api.clock.now = new Date(start.getTime() + day * 24 * HOUR);
      t.equal((await dash(api, 'GET', '/session', { auth })).status, 200, `used on day ${day}`);
    }
    api.clock.now = new Date(start.getTime() + 30 * 24 * HOUR);
    const ended = await dash(api, 'GET', '/session', { auth });
    t.same([ended.status, ended.body], [401, NOT_SIGNED_IN], 'past the maximum however active');
    t.match(ended.headers.getSetCookie()[0], /^folio_session=; Path=\/; Max-Age=0;/, 'the stale cookie is cleared');
    api.clock.now = start;
    const idle = await dashTenant(api);
    api.clock.now = new Date(start.getTime() + 7 * 24 * HOUR);
    t.same((await dash(api, 'GET', '/session', { auth: idle.auth })).body, NOT_SIGNED_IN, 'idle for 7 days');
  });

  t.test('should sign out this session, or every session of the user', async (t) => {
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const a = await signIn(api, email);
    const b = await signIn(api, email);
    const c = await signIn(api, email);
    const out = await dash(api, 'POST', '/auth/sign-out', { auth: a });
    t.equal(out.status, 204);
    t.match(out.headers.getSetCookie()[0], /^folio_session=; Path=\/; Max-Age=0;/);
    t.same((await dash(api, 'GET', '/session', { auth: a })).body, NOT_SIGNED_IN);
    t.equal((await dash(api, 'GET', '/session', { auth: b })).status, 200);
    t.equal((await dash(api, 'POST', '/auth/sign-out-everywhere', { auth: b })).status, 204);
    t.same((await dash(api, 'GET', '/session', { auth: b })).body, NOT_SIGNED_IN);
    t.same((await dash(api, 'GET', '/session', { auth: c })).body, NOT_SIGNED_IN);
    t.same((await dash(api, 'POST', '/auth/sign-out', { auth: c })).body, NOT_SIGNED_IN);
  });

  t.test('should answer the session probe without an error status, signed in or out', async (t) => {
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const auth = await signIn(api, email);
    t.same(await dash(api, 'GET', '/session/probe').then((r) => [r.status, r.body]), [200, { signed_in: false }], 'no cookie');
    const probe = await dash(api, 'GET', '/session/probe', { auth });
    t.equal(probe.status, 200);
    t.same(probe.body, { signed_in: true, session: (await dash(api, 'GET', '/session', { auth })).body }, 'the body of GET /session');
    t.equal((await dash(api, 'POST', '/auth/sign-out', { auth })).status, 204);
    const out = await dash(api, 'GET', '/session/probe', { auth });
    t.same([out.status, out.body], [200, { signed_in: false }], 'a signed-out cookie');
    t.match(out.headers.getSetCookie()[0] ?? '', /^folio_session=; /, 'the stale cookie is told to go');
    t.same((await dash(api, 'GET', '/session', { auth })).body, NOT_SIGNED_IN, 'GET /session keeps its 401');
  });

  t.test('should rate-limit sign-ins per email and failed ones per address', async (t) => {
    // Its own server: the limits it reaches would lock the other subtests out.
    const api = await startTestApi({ dashboard: { signInLimits: { perEmail: 3, perIp: 6, windowMs: 60_000 } } });
    t.teardown(() => api.close());
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const start = api.clock.now;
    for (let i = 0; i < 3; i++) t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email, password: 'wrong password' } })).status, 401);
    const limited = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    t.same([limited.status, limited.body], [429, { error: 'rate_limited', message: 'Too many sign-in attempts for this email; try again in 60 s' }]);
    t.equal(limited.headers.get('retry-after'), '60');
    api.clock.now = new Date(start.getTime() + 60_001);
    t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } })).status, 200, 'allowed once the window passed');
    // Six failures from one address across accounts (three had already expired above).
    for (let i = 0; i < 6; i++) t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email: `n${i}@example.com`, password: 'wrong password' } })).status, 401);
    const byIp = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    t.same([byIp.status, byIp.body], [429, { error: 'rate_limited', message: 'Too many failed sign-in attempts from this address; try again in 60 s' }]);
  });

  t.test('should end a session when its membership is removed', async (t) => {
    const { auth, orgId, userId } = await dashTenant(api, 'free', 'member');
    await api.cp.m.Membership.deleteOne({ org_id: orgId, user_id: userId });
    t.same((await dash(api, 'GET', '/session', { auth })).body, NOT_SIGNED_IN);
  });
});

/**
 * The dashboard's answers to a black-box security battery, over real HTTP on 127.0.0.1 with real
 * concurrency: invitation links are no password oracle, a burst of sign-ins cannot outrun the
 * limits, and a cross-site page can neither post a body the browser sends without a preflight
 * nor make a state change (sign-in included) from another origin or site.
 */
import t from 'tap';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi, type TestApi, type TestResponse } from '../helpers/api.ts';
import { addUser, dash, dashTenant, PASSWORD, sessionTokenOf, type DashboardAuth } from '../helpers/dashboard.ts';

const WINDOW_S = 15 * 60;
const SIGN_IN_REQUIRED = { error: 'sign_in_required', message: 'An account exists for this email; sign in, then open the invitation link again' };
const WRONG_ACCOUNT = { error: 'wrong_account', message: 'This invitation is for another account than the one signed in; sign out, sign in as the invited address, then open the invitation link again' };
const BAD_CREDENTIALS = { error: 'invalid_credentials', message: 'Email or password is incorrect' };
const EMAIL_LIMITED = { error: 'rate_limited', message: `Too many sign-in attempts for this email; try again in ${WINDOW_S} s` };
const IP_LIMITED = { error: 'rate_limited', message: `Too many failed sign-in attempts from this address; try again in ${WINDOW_S} s` };
const NOT_SIGNED_IN = { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' };

const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');

/** A POST to `/dashboard/api{path}` with exactly these headers and body (fetch adds no Content-Type to a Blob without a type). */
async function post(api: TestApi, path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<TestResponse> {
  const res = await fetch(`${new URL(api.url).origin}/dashboard/api${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

const authOf = (res: TestResponse): DashboardAuth => {
  const token = sessionTokenOf(res)!;
  return { token, cookie: `folio_session=${token}`, csrf: res.body.csrf_token };
};

/** How many responses had each status. */
const tally = (responses: TestResponse[]) => responses.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

t.test('dashboard authentication hardening', async (t) => {
  t.test('should take no password for an existing account at an invitation link', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const other = await dashTenant(api, 'pro');
    const inv = await dash(api, 'POST', '/invitations', { auth: b.auth, body: { email: a.email, role: 'admin' } });
    t.equal(inv.status, 201);
    const token = tokenOf(inv.body.invite_url);

    // Organization B guesses A's password through its own invitation: 30 wrong, then the right one.
    const guesses = [...Array.from({ length: 30 }, (_, i) => `wrong guess number ${i}`), PASSWORD];
    for (const password of guesses) {
      const res = await dash(api, 'POST', '/auth/accept-invite', { body: { token, name: 'A', password } });
      t.same([res.status, res.body], [409, SIGN_IN_REQUIRED], `password ${JSON.stringify(password)}`);
      t.equal(sessionTokenOf(res), undefined, 'no session');
    }
    t.equal(await api.cp.m.Membership.countDocuments({ org_id: b.orgId, user_id: a.userId }), 0, 'A did not join');

    // Signed in as another account: refused, the link still works afterwards.
    const wrong = await dash(api, 'POST', '/auth/accept-invite', { auth: other.auth, body: { token } });
    t.same([wrong.status, wrong.body], [403, WRONG_ACCOUNT]);
    t.equal(sessionTokenOf(wrong), undefined);
    t.equal((await dash(api, 'GET', '/session', { auth: other.auth })).body.organization.id, other.orgId, 'the other session is untouched');

    // Signed in as A: the session's CSRF rules apply, and no password is taken.
    const noCsrf = await dash(api, 'POST', '/auth/accept-invite', { auth: a.auth, noCsrf: true, body: { token } });
    t.same([noCsrf.status, noCsrf.body], [403, { error: 'csrf_failed', message: 'Missing X-CSRF-Token header; expected the csrf_token of GET /dashboard/api/session' }]);
    const withPassword = await dash(api, 'POST', '/auth/accept-invite', { auth: a.auth, body: { token, password: PASSWORD } });
    t.same([withPassword.status, withPassword.body], [400, { error: 'invalid_request', message: 'Password: Unexpected for an existing account; accept while signed in, without a password' }]);
    const joined = await dash(api, 'POST', '/auth/accept-invite', { auth: a.auth, body: { token } });
    t.equal(joined.status, 200, joined.text);
    t.same([joined.body.user.id, joined.body.organization.id, joined.body.role], [a.userId, b.orgId, 'admin']);
    t.same((await dash(api, 'GET', '/session', { auth: a.auth })).body, NOT_SIGNED_IN, 'the session it came with ended (a new token)');
    t.equal((await dash(api, 'GET', '/session', { auth: authOf(joined) })).body.organization.id, b.orgId, 'the new session is in the invited organization');
    t.equal(await api.cp.m.Membership.countDocuments({ user_id: a.userId }), 2, 'A belongs to both organizations');
    const reused = await dash(api, 'POST', '/auth/accept-invite', { auth: authOf(joined), body: { token } });
    t.same([reused.status, reused.body.error], [400, 'invalid_token']);
  });

  t.test('should tell an invitation page which flow the link needs', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const b = await dashTenant(api, 'pro');
    const org = await api.cp.m.Organization.findById(b.orgId).lean();
    const invNew = await dash(api, 'POST', '/invitations', { auth: b.auth, body: { email: 'brand-new@example.com', role: 'member' } });
    const peek = await dash(api, 'POST', '/auth/invitation', { body: { token: tokenOf(invNew.body.invite_url) } });
    t.same([peek.status, peek.body], [200, { email: 'brand-new@example.com', role: 'member', organization: { name: org!.name }, account_exists: false, expires_at: invNew.body.expires_at }]);
    const unknown = await dash(api, 'POST', '/auth/invitation', { body: { token: 'x'.repeat(43) } });
    t.same([unknown.status, unknown.body], [400, { error: 'invalid_token', message: 'This link is unknown, already used or expired; ask for a new one' }]);
    // A new account still chooses its password when accepting.
    const noPassword = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(invNew.body.invite_url), name: 'New' } });
    t.same([noPassword.status, noPassword.body], [400, { error: 'invalid_request', message: 'Password is required for a new account' }]);
    const noName = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(invNew.body.invite_url), password: PASSWORD } });
    t.same([noName.status, noName.body], [400, { error: 'invalid_request', message: 'Name is required for a new account' }]);
    const created = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(invNew.body.invite_url), name: 'New', password: PASSWORD } });
    t.same([created.status, created.body.user.email, created.body.organization.id], [200, 'brand-new@example.com', b.orgId]);
  });

  t.test('should check at most 5 passwords of a burst of 40 concurrent sign-ins for one email', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const org = await api.org();
    const { email } = await addUser(api, org.id);
    const passwords = Array.from({ length: 40 }, (_, i) => (i === 20 ? PASSWORD : `wrong password ${i}`));
    const responses = await Promise.all(passwords.map((password) => dash(api, 'POST', '/auth/sign-in', { body: { email, password } })));
    const counts = tally(responses);
    // A success gives its own slot back, so the right password may let one more guess through
    // later in the burst; wrong passwords checked never exceed the limit, however it is timed.
    t.ok((counts[401] ?? 0) <= 5 && (counts[401] ?? 0) >= 4, `at most 5 wrong passwords checked: ${JSON.stringify(counts)}`);
    t.ok((counts[200] ?? 0) <= 1);
    t.equal(counts[429], 40 - (counts[401] ?? 0) - (counts[200] ?? 0), 'the rest refused unchecked');
    for (const res of responses) {
      if (res.status === 429) {
        t.same(res.body, EMAIL_LIMITED);
        t.equal(res.headers.get('retry-after'), String(WINDOW_S));
        t.equal(sessionTokenOf(res), undefined);
      } else if (res.status === 401) t.same(res.body, BAD_CREDENTIALS);
    }
    // Fill the window if the burst left a slot: one more guess is checked, then none.
    if ((counts[401] ?? 0) < 5) t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email, password: 'one more wrong password' } })).status, 401);
    t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email, password: 'yet another wrong one' } })).status, 429);
    // The right password is refused too while the email is limited: no oracle.
    const right = await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    t.same([right.status, right.body, right.headers.get('retry-after')], [429, EMAIL_LIMITED, String(WINDOW_S)]);
    t.equal(sessionTokenOf(right), undefined);
    api.clock.now = new Date(api.clock.now.getTime() + WINDOW_S * 1000 + 1);
    t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } })).status, 200, 'allowed once the window passed');
  });

  t.test('should check at most 20 failed passwords from one address, and not count its successes', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const org = await api.org();
    // Successes give their address slot back: 25 people behind one address all sign in.
    const hash = await hashPassword(PASSWORD);
    const people = await Promise.all(Array.from({ length: 25 }, async (_, i) => {
      const user = await api.cp.m.User.create({ email: `person${i}@example.com`, password_hash: hash, created_at: api.clock.now });
      await api.cp.m.Membership.create({ org_id: org.id, user_id: user._id, role: 'member', created_at: api.clock.now });
      return user.email;
    }));
    // One after another: an attempt holds its slot while its password is checked.
    const signIns: TestResponse[] = [];
    for (const email of people) signIns.push(await dash(api, 'POST', '/auth/sign-in', { body: { email, password: PASSWORD } }));
    t.same(tally(signIns), { 200: 25 });
    // 30 concurrent guesses at 30 different accounts from one address: 20 checked.
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => dash(api, 'POST', '/auth/sign-in', { body: { email: `nobody${i}@example.com`, password: 'wrong password' } })));
    t.same(tally(guesses), { 401: 20, 429: 10 });
    for (const res of guesses.filter((r) => r.status === 429)) t.same([res.body, res.headers.get('retry-after')], [IP_LIMITED, String(WINDOW_S)]);
    const right = await dash(api, 'POST', '/auth/sign-in', { body: { email: people[0], password: PASSWORD } });
    t.same([right.status, right.body], [429, IP_LIMITED], 'the right password too');
    // Behind a trusted proxy the address is X-Forwarded-For's first hop: another client is not limited.
    const proxied = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', TRUST_PROXY: 'true' }) });
    t.teardown(() => proxied.close());
    const o = await proxied.org();
    const u = await addUser(proxied, o.id);
    for (let i = 0; i < 20; i++) await dash(proxied, 'POST', '/auth/sign-in', { body: { email: `n${i}@example.com`, password: 'wrong password' }, headers: { 'x-forwarded-for': '203.0.113.7' } });
    t.equal((await dash(proxied, 'POST', '/auth/sign-in', { body: { email: u.email, password: PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.7' } })).status, 429);
    t.equal((await dash(proxied, 'POST', '/auth/sign-in', { body: { email: u.email, password: PASSWORD }, headers: { 'x-forwarded-for': '198.51.100.9' } })).status, 200);
  });

  t.test('should give sign-in, claim and accept-invite one limit: none of them checks a password past it', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const a = await dashTenant(api, 'pro'); // signs in once: a success, which keeps no slot
    const b = await dashTenant(api, 'pro');
    const inv = await dash(api, 'POST', '/invitations', { auth: b.auth, body: { email: a.email, role: 'member' } });
    const token = tokenOf(inv.body.invite_url);
    for (let i = 0; i < 5; i++) t.equal((await dash(api, 'POST', '/auth/sign-in', { body: { email: a.email, password: `wrong ${i} password` } })).status, 401);
    const signInRight = await dash(api, 'POST', '/auth/sign-in', { body: { email: a.email, password: PASSWORD } });
    t.same([signInRight.status, signInRight.body], [429, EMAIL_LIMITED]);
    // Neither other way in checks the password, right or wrong.
    const accept = await dash(api, 'POST', '/auth/accept-invite', { body: { token, name: 'A', password: PASSWORD } });
    t.same([accept.status, accept.body], [409, SIGN_IN_REQUIRED]);
    const claim = await dash(api, 'POST', '/auth/claim', { body: { token: 'x'.repeat(43), email: a.email, password: PASSWORD } });
    t.same([claim.status, claim.body.error], [400, 'invalid_token']);
    t.equal([accept, claim].filter((r) => sessionTokenOf(r)).length, 0, 'no session handed out');
    // A's live session still accepts, since it proves the account without a password.
    const joined = await dash(api, 'POST', '/auth/accept-invite', { auth: a.auth, body: { token } });
    t.same([joined.status, joined.body.organization.id], [200, b.orgId]);
  });

  t.test('should take only application/json bodies, sign-in included', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const { email, auth } = await dashTenant(api, 'pro');
    const json = JSON.stringify({ email, password: PASSWORD });
    const cases: [string, BodyInit, Record<string, string>, unknown][] = [
      ['no Content-Type (a Blob body)', new Blob([json]), {}, { error: 'unsupported_media_type', message: 'Content-Type: Required for a request body; expected application/json' }],
      ['text/plain', json, { 'content-type': 'text/plain' }, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "text/plain"; expected application/json' }],
      ['multipart', (() => { const f = new FormData(); f.set('email', email); f.set('password', PASSWORD); return f; })(), {}, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "multipart/form-data"; expected application/json' }],
      ['a form', new URLSearchParams({ email, password: PASSWORD }), {}, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "application/x-www-form-urlencoded"; expected application/json' }],
      ['JSON in latin1', json, { 'content-type': 'application/json; charset=latin1' }, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected charset "latin1"; expected utf-8' }],
      ['a JSON-like type', json, { 'content-type': 'application/vnd.api+json' }, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "application/vnd.api+json"; expected application/json' }],
    ];
    for (const [name, body, headers, expected] of cases) {
      for (const path of ['/auth/sign-in', '/auth/claim', '/auth/accept-invite', '/auth/invitation']) {
        const res = await post(api, path, body, headers);
        t.same([res.status, res.body], [415, expected], `${path}: ${name}`);
        t.same(res.headers.getSetCookie(), [], `${path}: ${name}: no cookie`);
      }
    }
    const session = await post(api, '/api-keys', new Blob([JSON.stringify({ name: 'k' })]), { cookie: auth.cookie, 'x-csrf-token': auth.csrf });
    t.same([session.status, session.body.error], [415, 'unsupported_media_type'], 'session routes too');
    const spaced = await post(api, '/auth/sign-in', json, { 'content-type': 'Application/JSON ; charset=UTF-8' });
    t.equal(spaced.status, 200, 'media types are case-insensitive');
    const utf8 = await post(api, '/auth/sign-in', json, { 'content-type': 'application/json; charset=utf-8' });
    t.equal(utf8.status, 200, 'application/json with charset utf-8');
    const empty = await post(api, '/auth/sign-out', new Uint8Array(0), { cookie: authOf(utf8).cookie, 'x-csrf-token': authOf(utf8).csrf });
    t.equal(empty.status, 204, 'no body needs no type');
  });

  t.test('should refuse a state change another site or origin made, sign-in included', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const origin = new URL(api.url).origin;
    const { email, auth } = await dashTenant(api, 'pro');
    const body = { email, password: PASSWORD };
    const refused = (header: string, value: string, expected: string) => ({ error: 'csrf_failed', message: `${header}: Unexpected ${JSON.stringify(value)}; expected ${expected}` });
    const SITE = 'same-origin (the dashboard calls its API only from its own pages)';
    const cases: [Record<string, string>, unknown][] = [
      [{ 'sec-fetch-site': 'cross-site' }, refused('Sec-Fetch-Site', 'cross-site', SITE)],
      [{ 'sec-fetch-site': 'same-site' }, refused('Sec-Fetch-Site', 'same-site', SITE)],
      [{ 'sec-fetch-site': 'same-site', origin: `http://docs.localhost:${new URL(api.url).port}` }, refused('Sec-Fetch-Site', 'same-site', SITE)],
      [{ origin: 'https://evil.example' }, refused('Origin', 'https://evil.example', origin)],
      [{ origin: 'null' }, refused('Origin', 'null', origin)],
      [{ origin: `http://docs.localhost:${new URL(api.url).port}` }, refused('Origin', `http://docs.localhost:${new URL(api.url).port}`, origin)],
      [{ origin: `${origin}.evil.example` }, refused('Origin', `${origin}.evil.example`, origin)],
      [{ origin, 'sec-fetch-site': 'cross-site' }, refused('Sec-Fetch-Site', 'cross-site', SITE)],
    ];
    for (const [headers, expected] of cases) {
      for (const path of ['/auth/sign-in', '/auth/claim', '/auth/accept-invite']) {
        const res = await dash(api, 'POST', path, { body, headers });
        t.same([res.status, res.body], [403, expected], `${path} ${JSON.stringify(headers)}`);
        t.same(res.headers.getSetCookie(), [], 'no cookie');
      }
      const out = await dash(api, 'POST', '/auth/sign-out', { auth, headers });
      t.same([out.status, out.body], [403, expected], `sign-out ${JSON.stringify(headers)}`);
      const del = await dash(api, 'DELETE', '/members/x', { auth, headers });
      t.same([del.status, del.body], [403, expected], `DELETE ${JSON.stringify(headers)}`);
    }
    t.equal((await dash(api, 'GET', '/session', { auth, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status, 200, 'reads are not state changes; the session lives on');
    const own = await dash(api, 'POST', '/auth/sign-in', { body, headers: { origin, 'sec-fetch-site': 'same-origin' } });
    t.equal(own.status, 200, 'the dashboard\'s own page');
    t.equal((await dash(api, 'POST', '/auth/sign-in', { body, headers: { 'sec-fetch-site': 'none' } })).status, 200, 'typed by the user');
    t.equal((await dash(api, 'POST', '/auth/sign-in', { body })).status, 200, 'neither header: a JSON-only public call');
    t.equal((await dash(api, 'POST', '/auth/sign-out', { auth: authOf(own), headers: { origin } })).status, 204);

    // With DASHBOARD_URL the dashboard's origin is allowed besides the API's.
    const split = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DASHBOARD_URL: 'https://app.example.test/' }) });
    t.teardown(() => split.close());
    const s = await dashTenant(split, 'pro');
    const viaApp = await dash(split, 'POST', '/auth/sign-in', { body: { email: s.email, password: PASSWORD }, headers: { origin: 'https://app.example.test' } });
    t.equal(viaApp.status, 200, viaApp.text);
    const splitOrigin = new URL(split.url).origin;
    const foreign = await dash(split, 'POST', '/auth/sign-in', { body: { email: s.email, password: PASSWORD }, headers: { origin: 'https://evil.example' } });
    t.same([foreign.status, foreign.body], [403, refused('Origin', 'https://evil.example', `https://app.example.test or ${splitOrigin}`)]);
  });
});

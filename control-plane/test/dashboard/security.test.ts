import t from 'tap';
import { bootstrap } from '../../src/server.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant, sessionTokenOf } from '../helpers/dashboard.ts';

const KEY_REFUSED = { error: 'unauthorized', message: 'The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys' };
const NOT_SIGNED_IN = { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' };
const PUBLIC = new Set([
  '/auth/sign-in', '/auth/claim', '/auth/invitation', '/auth/accept-invite', '/openapi.json',
  // Answers a signed-out browser 200 `{ signed_in: false }` (sessions.test.ts checks it).
  '/session/probe',
  // Single sign-on: starting it, the IdP's way back (protected by state, PKCE, signatures), our SP metadata.
  '/auth/sso/start', '/auth/sso/oidc/callback', '/auth/sso/saml/{orgId}/acs', '/auth/sso/saml/{orgId}/metadata',
]);

t.test('dashboard security', async (t) => {
  const logged: string[] = [];
  const api = await startTestApi({ log: (msg, err) => logged.push(`${msg} ${String(err)} ${JSON.stringify(err)}`) });
  t.teardown(() => api.close());
  // The first start's owner link, issued before any other organization exists.
  const claim = await bootstrap(api.cp.m, api.cp.deps.env, api.clock.now);
  const doc = (await dash(api, 'GET', '/openapi.json')).body;
  const routes: [string, string][] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, object>)) for (const method of Object.keys(ops)) routes.push([method.toUpperCase(), path]);
  // Every route of the document, with its parameters filled in.
  const concrete = (path: string, ids: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, name) => ids[name] ?? 'x');

  t.test('should document the dashboard routes, including the event stream', async (t) => {
    t.ok(routes.length >= 30, `${routes.length} routes`);
    t.ok(routes.some(([m, p]) => m === 'GET' && p === '/projects/{id}/domains'));
  });

  t.test('should refuse an API key on every route, with or without a session', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'enterprise');
    const key = await api.key(orgId);
    const project = await api.project(key);
    for (const [method, path] of [...routes, ['GET', '/projects/{id}/deployments/{deploymentId}/events']]) {
      const url = concrete(path, { id: project.id });
      const res = await dash(api, method, url, { auth, headers: { authorization: `Bearer ${key}` }, body: method === 'GET' ? undefined : {} });
      t.same([res.status, res.body], [401, KEY_REFUSED], `${method} ${path}`);
    }
  });

  t.test('should need a session on every route but sign-in, claim and the invitation links, and the CSRF token on every change', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'enterprise');
    const project = await api.project(await api.key(orgId));
    for (const [method, path] of routes) {
      if (PUBLIC.has(path)) continue;
      const url = concrete(path, { id: project.id });
      const res = await dash(api, method, url, { body: method === 'GET' ? undefined : {} });
      t.same([res.status, res.body], [401, NOT_SIGNED_IN], `${method} ${path} without a session`);
      if (method === 'GET') continue;
      const csrf = await dash(api, method, url, { auth, noCsrf: true, body: {} });
      t.same([csrf.status, csrf.body.error], [403, 'csrf_failed'], `${method} ${path} without X-CSRF-Token`);
    }
  });

  t.test('should keep passwords, key secrets and link tokens out of the database and the logs', async (t) => {
    const password = 'plain-password-to-find-1';
    const claimToken = new URL(claim!.claimUrl!).hash.replace('#token=', '');
    const owner = await dash(api, 'POST', '/auth/claim', { body: { token: claimToken, email: 'secret-owner@example.com', password } });
    t.equal(owner.status, 200);
    // A free plan has no seat to invite into.
    await api.cp.m.Organization.updateOne({ handle: 'default' }, { $set: { plan: 'pro' } });
    const auth = { token: sessionTokenOf(owner)!, cookie: `folio_session=${sessionTokenOf(owner)}`, csrf: owner.body.csrf_token };
    const { body: { secret } } = await dash(api, 'POST', '/api-keys', { auth, body: { name: 'find me' } });
    const { body: invite } = await dash(api, 'POST', '/invitations', { auth, body: { email: 'x@example.com', role: 'member' } });
    const needles = { password, key_secret: secret.split('_')[2], session_token: auth.token, csrf_token: auth.csrf, claim_token: claimToken, invite_token: new URL(invite.invite_url).hash.replace('#token=', '') };
    const db = api.cp.db.connection.db!;
    let dump = '';
    for (const { name } of await db.listCollections().toArray()) dump += JSON.stringify(await db.collection(name).find({}).toArray());
    t.ok(dump.includes('secret-owner@example.com'), 'the dump holds the data');
    t.match(dump, /"password_hash":"scrypt\$32768\$8\$1\$/, 'passwords are stored as scrypt hashes');
    for (const [what, value] of Object.entries(needles)) {
      t.notOk(dump.includes(value), `no ${what} in the database`);
      t.notOk(logged.join('\n').includes(value), `no ${what} in the logs`);
    }
  });
});

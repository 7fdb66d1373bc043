/**
 * Reader authentication settings over the dashboard API: the plan gate (free gets the plan error
 * with its exact body), every rejection of bad settings with its exact body, secrets never
 * returned, the site password and reader authentication excluding each other, and another
 * organization neither reading nor changing them.
 */
import { generateKeyPairSync } from 'node:crypto';
import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';

const SECRET = 'a shared secret of the customer app, 32+ bytes long';
const JWT = { mode: 'jwt', algorithm: 'HS256', verification_key: SECRET, login_url: 'https://login.example.com/sign-in', audience: 'docs-readers' };
const OIDC = { mode: 'oidc', issuer: 'https://id.example.com', client_id: 'docs', client_secret: 'client secret value' };

t.test('reader authentication settings', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const pro = await dashTenant(api, 'pro');
  const project = await api.project(await api.key(pro.orgId));
  const path = `/projects/${project.id}/reader-auth`;

  t.test('free gets the plan error with the upgrade link', async (t) => {
    const free = await dashTenant(api, 'free');
    const own = await api.project(await api.key(free.orgId));
    const res = await dash(api, 'PUT', `/projects/${own.id}/reader-auth`, { auth: free.auth, body: JWT });
    t.equal(res.status, 402);
    t.same(res.body, { error: 'plan_required', message: 'The Sign-in for readers feature needs the Pro plan or higher', upgrade_url: res.body.upgrade_url });
    t.match(res.body.upgrade_url, /^https?:\/\//);
    const read = await dash(api, 'GET', `/projects/${own.id}/reader-auth`, { auth: free.auth });
    t.same([read.status, read.body.enabled, read.body.editable], [200, false, false]);
  });

  t.test('a JWT handoff is set; secrets are never returned', async (t) => {
    const res = await dash(api, 'PUT', path, { auth: pro.auth, body: JWT });
    t.equal(res.status, 200, res.text);
    t.match(res.body, { enabled: true, mode: 'jwt', scope: 'partial', algorithm: 'HS256', verification_key_set: true, login_url: JWT.login_url, audience: 'docs-readers', groups_claim: 'groups', handoff_path: '/_folio/auth/jwt', editable: true });
    t.notMatch(res.text, SECRET);
    const again = await dash(api, 'PUT', path, { auth: pro.auth, body: { ...JWT, verification_key: undefined, scope: 'full' } });
    t.same([again.status, again.body.scope, again.body.verification_key_set], [200, 'full', true], 'leaving the secret out keeps it');
    const stored = await api.cp.m.Project.findById(project.id).lean();
    t.notMatch(JSON.stringify(stored), SECRET, 'stored sealed');
  });

  t.test('an RS256 public key and an OpenID provider are set', async (t) => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const rs = await dash(api, 'PUT', path, { auth: pro.auth, body: { ...JWT, algorithm: 'RS256', verification_key: pem } });
    t.same([rs.status, rs.body.algorithm, rs.body.verification_key_set], [200, 'RS256', true], rs.text);
    const oidc = await dash(api, 'PUT', path, { auth: pro.auth, body: OIDC });
    t.match(oidc.body, { mode: 'oidc', issuer: OIDC.issuer, client_id: 'docs', client_secret_set: true, scopes: 'openid profile email', callback_path: '/_folio/auth/callback' });
    t.notMatch(oidc.text, 'client secret value');
  });

  t.test('bad settings are refused with a clear message', async (t) => {
    const cases: [Record<string, unknown>, string][] = [
      [{ mode: 'saml' }, 'Mode must be oidc or jwt'],
      [{ ...JWT, scope: 'some' }, 'Scope must be full (every page) or partial (all but public pages)'],
      [{ ...JWT, login_url: undefined }, 'Login URL is required for sign-in with a token: readers are sent there to sign in'],
      [{ ...JWT, login_url: 'javascript:alert(1)' }, 'Login URL must be an absolute http or https URL of the sign-in page'],
      [{ ...JWT, verification_key: 'short' }, 'Verification key must be at least 32 bytes for HS256'],
      [{ ...JWT, algorithm: 'none' }, 'Algorithm must be HS256, RS256 or ES256'],
      [{ ...JWT, algorithm: 'RS256', verification_key: 'not a key' }, 'Verification key must be a PEM public key (-----BEGIN PUBLIC KEY-----) for RS256'],
      [{ ...JWT, jwks_url: 'https://id.example.com/jwks' }, 'JWKS URL is for RS256 or ES256 keys; HS256 uses a shared secret as the verification key'],
      [{ ...JWT, client_id: 'x' }, 'Client ID is for sign-in with an OpenID provider (mode oidc), not with a token'],
      [{ ...OIDC, issuer: undefined }, 'Issuer is required for sign-in with an OpenID provider'],
      [{ ...OIDC, issuer: 'ftp://id.example.com' }, 'Issuer must be an absolute http or https URL of the OpenID provider'],
      [{ ...OIDC, groups_claim: 'has space' }, 'Groups claim must be a claim name such as groups or https://example.com/roles'],
      [{ ...OIDC, login_url: 'https://x.example.com' }, 'Login URL is for sign-in with a token (mode jwt), not with an OpenID provider'],
      [{ ...JWT, extra: 1 }, 'Extra is not expected here'],
    ];
    for (const [body, message] of cases) {
      const res = await dash(api, 'PUT', path, { auth: pro.auth, body });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message }], JSON.stringify(body));
    }
  });

  t.test('a site password and reader authentication exclude each other', async (t) => {
    await dash(api, 'DELETE', path, { auth: pro.auth });
    t.equal((await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: pro.auth, body: { password: 'long enough secret' } })).status, 200);
    const res = await dash(api, 'PUT', path, { auth: pro.auth, body: JWT });
    t.same([res.status, res.body], [409, { error: 'conflict', message: 'The site has a password; remove it before readers sign in another way' }]);
    await dash(api, 'DELETE', `/projects/${project.id}/password`, { auth: pro.auth });
    t.equal((await dash(api, 'PUT', path, { auth: pro.auth, body: JWT })).status, 200);
    const password = await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: pro.auth, body: { password: 'long enough secret' } });
    t.same([password.status, password.body], [409, { error: 'conflict', message: 'Readers sign in to the site; turn that off before setting a password' }], 'and the other way round');
    await dash(api, 'DELETE', path, { auth: pro.auth });
  });

  t.test('another organization can neither read nor change the settings', async (t) => {
    t.equal((await dash(api, 'PUT', path, { auth: pro.auth, body: JWT })).status, 200);
    const other = await dashTenant(api, 'enterprise');
    const notFound = { error: 'not_found', message: 'project not found' };
    for (const [method, body] of [['GET', undefined], ['PUT', { ...JWT, login_url: 'https://evil.example.com' }], ['DELETE', undefined]] as const) {
      const res = await dash(api, method, path, { auth: other.auth, body });
      t.same([res.status, res.body], [404, notFound], method);
    }
    const mine = await dash(api, 'GET', path, { auth: pro.auth });
    t.same([mine.body.enabled, mine.body.login_url], [true, JWT.login_url], 'unchanged');
  });

  t.test('removing it turns readers\' sign-in off', async (t) => {
    t.equal((await dash(api, 'DELETE', path, { auth: pro.auth })).status, 204);
    t.equal((await dash(api, 'GET', path, { auth: pro.auth })).body.enabled, false);
  });
});

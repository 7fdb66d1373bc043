/**
 * Signing in with OpenID Connect against a real provider (oidc-provider on 127.0.0.1): the
 * happy path with a just-in-time seat, then each way a callback is refused (state, nonce, PKCE,
 * issuer), each with its redirect code and audit entry.
 */
import t from 'tap';
import { dash, sessionTokenOf } from '../helpers/dashboard.ts';
import { startOidcIdp, type OidcIdp } from '../helpers/oidc-idp.ts';
import { auditOf, CookieJar, followUntil, ssoTenant, startSso, startSsoTestApi } from '../helpers/sso.ts';

t.test('OIDC sign-in', async (t) => {
  const sso = await startSsoTestApi();
  t.teardown(() => sso.close());
  const idp: OidcIdp = await startOidcIdp(`${sso.origin}/dashboard/api/auth/sso/oidc/callback`);
  t.teardown(() => idp.close());
  sso.allowHosts.push(idp.host);
  const tenant = await ssoTenant(sso);
  const put = await dash(sso.api, 'PUT', '/sso/connection', { auth: tenant.auth, body: { protocol: 'oidc', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret } });
  t.equal(put.status, 200, put.text);
  t.same(put.body.connection.oidc, { issuer: idp.issuer, client_id: idp.clientId, client_secret_set: true });
  const stored = await sso.api.cp.m.SsoConnection.findOne({ org_id: tenant.orgId }).lean();
  t.notOk(JSON.stringify(stored).includes(idp.clientSecret), 'the client secret is stored sealed, never in clear');

  const isCallback = (u: URL) => u.pathname === '/dashboard/api/auth/sso/oidc/callback';
  /** Starts a sign-in for `email` and follows it through the IdP up to (not into) our callback. */
  async function toCallback(email: string, idpUser = email) {
    const jar = new CookieJar();
    idp.user = idpUser;
    const started = await startSso(sso, jar, email);
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    const callback = await followUntil(jar, started.body.redirect_url, isCallback);
    return { jar, callback };
  }
  async function finish(jar: CookieJar, callback: URL) {
    const res = await jar.fetch(callback.href);
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') ?? '', session: res.headers.getSetCookie().find((c) => c.startsWith('folio_session=') && !c.startsWith('folio_session=;')) };
  }
  const failures = async (code: string) => (await auditOf(sso, tenant.orgId, 'sso.sign_in_failed')).filter((e: any) => e.details?.code === code);

  t.test('should sign a new person in just in time with the default role', async (t) => {
    const email = `new.person@${tenant.domain}`;
    const { jar, callback } = await toCallback(email);
    t.ok(callback.searchParams.get('code') && callback.searchParams.get('state'), 'the IdP answered a code and the state');
    const done = await finish(jar, callback);
    t.same([done.status, done.location], [303, `${sso.origin}/projects`]);
    t.ok(done.session, 'a session cookie is set');
    const token = done.session!.split(';')[0].slice('folio_session='.length);
    const session = await dash(sso.api, 'GET', '/session', { headers: { cookie: `folio_session=${token}` } });
    t.same([session.status, session.body.user.email, session.body.organization.id, session.body.role], [200, email, tenant.orgId, 'viewer']);
    const user = await sso.api.cp.m.User.findOne({ email }).lean();
    t.equal(user?.password_hash, null, 'an SSO-made account has no password');
    t.equal((await auditOf(sso, tenant.orgId, 'sso.member_provisioned')).filter((e: any) => e.target_name === email).length, 1);
    t.equal((await auditOf(sso, tenant.orgId, 'sso.signed_in')).filter((e: any) => e.target_name === email).length, 1);
  });

  t.test('should refuse a callback whose state is not this browser\'s', async (t) => {
    const { jar, callback } = await toCallback(`state@${tenant.domain}`);
    jar.cookies.set('folio_sso_state', 'another-browsers-state');
    const done = await finish(jar, callback);
    t.same([done.status, done.location, done.session], [303, `${sso.origin}/sign-in?sso_error=sso_state_mismatch`, undefined]);
    t.equal((await failures('sso_state_mismatch')).length, 1);
  });

  t.test('should refuse an ID token whose nonce is not the sign-in\'s', async (t) => {
    const { jar, callback } = await toCallback(`nonce@${tenant.domain}`);
    await sso.api.cp.m.SsoPending.updateMany({ org_id: tenant.orgId, nonce: { $ne: null } }, { $set: { nonce: 'not-the-nonce-sent' } });
    const done = await finish(jar, callback);
    t.same([done.status, done.location, done.session], [303, `${sso.origin}/sign-in?sso_error=sso_nonce_mismatch`, undefined]);
    t.equal((await failures('sso_nonce_mismatch')).length, 1);
  });

  t.test('should refuse when the PKCE verifier does not match the challenge', async (t) => {
    const { jar, callback } = await toCallback(`pkce@${tenant.domain}`);
    await sso.api.cp.m.SsoPending.updateMany({ org_id: tenant.orgId, code_verifier: { $ne: null } }, { $set: { code_verifier: 'x'.repeat(43) } });
    const done = await finish(jar, callback);
    t.same([done.status, done.location, done.session], [303, `${sso.origin}/sign-in?sso_error=sso_code_rejected`, undefined]);
    const entry = (await failures('sso_code_rejected'))[0] as any;
    t.match(entry?.details?.detail, /invalid_grant/);
  });

  t.test('should refuse an answer naming another issuer', async (t) => {
    const { jar, callback } = await toCallback(`issuer@${tenant.domain}`);
    callback.searchParams.set('iss', 'https://evil.example');
    const done = await finish(jar, callback);
    t.same([done.status, done.location, done.session], [303, `${sso.origin}/sign-in?sso_error=sso_wrong_issuer`, undefined]);
    t.equal((await failures('sso_wrong_issuer')).length, 1);
  });

  t.test('should refuse an email outside the organization\'s verified domains', async (t) => {
    // The IdP decides who signs in; here it vouches for an address of a domain the organization has not verified.
    const { jar, callback } = await toCallback(`someone@${tenant.domain}`, 'ceo@elsewhere.test');
    const done = await finish(jar, callback);
    t.same([done.status, done.location, done.session], [303, `${sso.origin}/sign-in?sso_error=sso_email_not_allowed`, undefined]);
    t.equal((await failures('sso_email_not_allowed')).filter((e: any) => e.target_name === 'ceo@elsewhere.test').length, 1);
    t.equal(await sso.api.cp.m.User.exists({ email: 'ceo@elsewhere.test' }), null, 'no account was made');
  });

  t.test('should answer an unknown domain with a clear JSON error and audit it', async (t) => {
    const res = await startSso(sso, new CookieJar(), 'someone@unknown-domain.test');
    t.same(res, { status: 404, body: { error: 'sso_unknown_domain', message: 'Email: No organization uses single sign-on for this email domain; sign in with your password, or ask your administrator which address to use.' } });
    const entries = await sso.api.cp.m.AuditEntry.find({ org_id: 'platform', action: 'sso.sign_in_failed', target_name: 'someone@unknown-domain.test' }).lean();
    t.same(entries.map((e: any) => e.details.code), ['sso_unknown_domain']);
  });

  t.test('should end the session the browser came with (no fixation)', async (t) => {
    const { jar, callback } = await toCallback(`fixation@${tenant.domain}`);
    const planted = 'planted-session-token';
    jar.cookies.set('folio_session', planted);
    const done = await finish(jar, callback);
    t.equal(done.status, 303);
    const token = done.session!.split(';')[0].slice('folio_session='.length);
    t.not(token, planted);
    t.equal(sessionTokenOf({ status: 200, headers: new Headers([['set-cookie', done.session!]]), body: undefined, text: '' }), token);
  });
});

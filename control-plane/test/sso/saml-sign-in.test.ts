/**
 * Signing in with SAML 2.0 against a real IdP (samlify on 127.0.0.1) into our node-saml SP:
 * SP-initiated through the IdP's auto-posting page, then each refusal (another signing key,
 * another audience, expired, the same response twice, IdP-initiated when not allowed and
 * replayed when allowed, a seat past the plan's limit), each with its code and audit entry.
 */
import { inflateRawSync } from 'node:zlib';
import t from 'tap';
import { dash } from '../helpers/dashboard.ts';
import { startSamlIdp, type SamlIdp } from '../helpers/saml-idp.ts';
import { auditOf, CookieJar, ssoTenant, startSso, startSsoTestApi } from '../helpers/sso.ts';

t.test('SAML sign-in', async (t) => {
  const sso = await startSsoTestApi();
  t.teardown(() => sso.close());
  let metadataUrl = '';
  const idp: SamlIdp = await startSamlIdp(() => metadataUrl);
  t.teardown(() => idp.close());
  sso.allowHosts.push(idp.host);
  const tenant = await ssoTenant(sso);
  metadataUrl = `${sso.origin}/dashboard/api/auth/sso/saml/${tenant.orgId}/metadata`;
  const acs = `${sso.origin}/dashboard/api/auth/sso/saml/${tenant.orgId}/acs`;
  const put = await dash(sso.api, 'PUT', '/sso/connection', { auth: tenant.auth, body: { protocol: 'saml', metadata_url: `${idp.url}/metadata` } });
  t.equal(put.status, 200, put.text);
  t.same(put.body.connection.saml, { metadata_url: `${idp.url}/metadata`, idp_entity_id: idp.entityId, idp_sso_url: `${idp.url}/sso`, certificates: 1 });
  t.same(put.body.service_provider, {
    entity_id: metadataUrl, acs_url: acs, metadata_url: metadataUrl, oidc_redirect_uri: `${sso.origin}/dashboard/api/auth/sso/oidc/callback`,
  });
  const spMetadata = await (await fetch(metadataUrl)).text();

  /** Posts a SAMLResponse the way the IdP's page does: a cross-site form POST. */
  async function post(samlResponse: string, jar = new CookieJar()) {
    const res = await jar.fetch(acs, {
      method: 'POST', body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idp.url, 'sec-fetch-site': 'cross-site' },
    });
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') ?? '', signedIn: jar.cookies.has('folio_session') };
  }
  const failures = async (code: string) => (await auditOf(sso, tenant.orgId, 'sso.sign_in_failed')).filter((e: any) => e.details?.code === code);
  const signInPage = (code: string) => `${sso.origin}/sign-in?sso_error=${code}`;
  /** A fresh AuthnRequest ID, as an SP-initiated sign-in stores it. */
  async function requestId(email: string): Promise<string> {
    const started = await startSso(sso, new CookieJar(), email);
    const request = new URL(started.body.redirect_url);
    t.equal(request.origin + request.pathname, `${idp.url}/sso`);
    return /\sID="([^"]+)"/.exec(inflateRawSync(Buffer.from(request.searchParams.get('SAMLRequest')!, 'base64')).toString())![1];
  }

  t.test('should serve the SP metadata with signed assertions wanted', async (t) => {
    const res = await fetch(metadataUrl);
    t.equal(res.headers.get('content-type'), 'application/samlmetadata+xml; charset=utf-8');
    t.match(spMetadata, `entityID="${metadataUrl}"`);
    t.match(spMetadata, 'WantAssertionsSigned="true"');
    t.match(spMetadata, `Location="${acs}"`);
  });

  t.test('should sign in SP-initiated through the IdP\'s page, just in time', async (t) => {
    const email = `jane@${tenant.domain}`;
    idp.user = email;
    const jar = new CookieJar();
    const started = await startSso(sso, jar, email);
    t.equal(started.status, 200);
    const page = await jar.fetch(started.body.redirect_url);
    const html = await page.text();
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)![1];
    const done = await post(samlResponse, jar);
    t.same(done, { status: 303, location: `${sso.origin}/projects`, signedIn: true });
    const session = await dash(sso.api, 'GET', '/session', { headers: { cookie: `folio_session=${jar.cookies.get('folio_session')}` } });
    t.same([session.body.user.email, session.body.organization.id, session.body.role], [email, tenant.orgId, 'viewer']);
    t.test('and refuse the same response posted twice', async (t) => {
      const again = await post(samlResponse);
      t.same(again, { status: 303, location: signInPage('sso_replayed'), signedIn: false });
      t.equal((await failures('sso_replayed')).length, 1);
    });
  });

  t.test('should refuse an assertion signed with another key', async (t) => {
    const done = await post(await idp.response(spMetadata, { email: `bad-sig@${tenant.domain}`, inResponseTo: await requestId(`bad-sig@${tenant.domain}`), otherKey: true }));
    t.same(done, { status: 303, location: signInPage('sso_invalid_signature'), signedIn: false });
    t.match((await failures('sso_invalid_signature'))[0], { details: { code: 'sso_invalid_signature', protocol: 'saml' }, actor_label: 'sso' });
  });

  t.test('should refuse an assertion for another audience', async (t) => {
    const done = await post(await idp.response(spMetadata, { email: `aud@${tenant.domain}`, inResponseTo: await requestId(`aud@${tenant.domain}`), audience: 'https://another-sp.example/metadata' }));
    t.same(done, { status: 303, location: signInPage('sso_wrong_audience'), signedIn: false });
    t.equal((await failures('sso_wrong_audience')).length, 1);
  });

  t.test('should refuse an expired assertion', async (t) => {
    const done = await post(await idp.response(spMetadata, { email: `old@${tenant.domain}`, inResponseTo: await requestId(`old@${tenant.domain}`), shiftMs: -3_600_000 }));
    t.same(done, { status: 303, location: signInPage('sso_expired'), signedIn: false });
    t.equal((await failures('sso_expired')).length, 1);
  });

  t.test('should refuse an assertion naming another issuer', async (t) => {
    const done = await post(await idp.response(spMetadata, { email: `iss@${tenant.domain}`, inResponseTo: await requestId(`iss@${tenant.domain}`), issuer: 'https://other-idp.example/metadata' }));
    t.same(done, { status: 303, location: signInPage('sso_wrong_issuer'), signedIn: false });
    t.equal((await failures('sso_wrong_issuer')).length, 1);
  });

  t.test('should refuse a member deactivated by SCIM, even with a valid assertion', async (t) => {
    const email = `gone@${tenant.domain}`;
    const user = await sso.api.cp.m.User.create({ email, name: 'Gone', password_hash: null, created_at: new Date() });
    await sso.api.cp.m.Membership.create({ org_id: tenant.orgId, user_id: user._id, role: 'editor', active: false, created_at: new Date() });
    const done = await post(await idp.response(spMetadata, { email, inResponseTo: await requestId(email) }));
    t.same(done, { status: 303, location: signInPage('sso_member_deactivated'), signedIn: false });
    t.equal((await failures('sso_member_deactivated')).length, 1);
  });

  t.test('should refuse an IdP-initiated response unless the connection allows them', async (t) => {
    const done = await post(await idp.response(spMetadata, { email: `idp@${tenant.domain}` }));
    t.same(done, { status: 303, location: signInPage('sso_unsolicited'), signedIn: false });
    t.equal((await failures('sso_unsolicited')).length, 1);
  });

  t.test('should accept an IdP-initiated response once when allowed, and refuse its replay', async (t) => {
    t.equal((await dash(sso.api, 'PATCH', '/sso/connection', { auth: tenant.auth, body: { allow_idp_initiated: true } })).status, 200);
    const response = await idp.response(spMetadata, { email: `idp@${tenant.domain}` });
    t.same(await post(response), { status: 303, location: `${sso.origin}/projects`, signedIn: true });
    t.same(await post(response), { status: 303, location: signInPage('sso_replayed'), signedIn: false });
    t.equal((await failures('sso_replayed')).length, 2);
    t.same(await post(await idp.response(spMetadata, { email: `idp-old@${tenant.domain}`, shiftMs: -10 * 60_000 })), { status: 303, location: signInPage('sso_expired'), signedIn: false }, 'older than the maximum age');
  });

  t.test('should refuse a new seat past the plan\'s member limit with the upgrade error', async (t) => {
    const full = await ssoTenant(sso);
    const fullMeta = `${sso.origin}/dashboard/api/auth/sso/saml/${full.orgId}/metadata`;
    t.equal((await dash(sso.api, 'PUT', '/sso/connection', { auth: full.auth, body: { protocol: 'saml', metadata_xml: idp.metadataXml, allow_idp_initiated: true } })).status, 200);
    // Team allows 15 seats; the owner holds one.
    for (let i = 0; i < 14; i++) await sso.api.cp.m.Membership.create({ org_id: full.orgId, user_id: `filler-${i}-${full.orgId}`, role: 'viewer', created_at: new Date() });
    const meta = await (await fetch(fullMeta)).text();
    const res = await fetch(`${sso.origin}/dashboard/api/auth/sso/saml/${full.orgId}/acs`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: await idp.response(meta, { email: `sixteenth@${full.domain}` }) }).toString(),
    });
    t.same([res.status, res.headers.get('location')], [303, signInPage('plan_limit_reached')]);
    const entry = (await auditOf(sso, full.orgId, 'sso.sign_in_failed'))[0] as any;
    t.same([entry.details.code, entry.target_name], ['plan_limit_reached', `sixteenth@${full.domain}`]);
    t.equal(await sso.api.cp.m.Membership.countDocuments({ org_id: full.orgId }), 15);
  });

  t.test('should keep the JSON and origin checks on every other dashboard POST', async (t) => {
    const res = await fetch(`${sso.origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idp.url }, body: 'email=a&password=b' });
    t.same([res.status, (await res.json()).error], [403, 'csrf_failed']);
    const acsJson = await fetch(acs, { method: 'POST', headers: { 'content-type': 'application/json', origin: idp.url }, body: '{}' });
    t.same([acsJson.status, (await acsJson.json()).error], [403, 'csrf_failed'], 'the ACS is exempt only for form posts');
  });

});

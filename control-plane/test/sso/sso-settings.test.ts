/**
 * SSO settings and policy: the team-plan gate, owners only, email domains verified by DNS TXT
 * (one organization per verified domain), "Require SSO" refusing password sign-in with its exact
 * body, and the owner's audited break-glass password sign-in.
 */
import t from 'tap';
import { addUser, dash, dashTenant, PASSWORD, signIn } from '../helpers/dashboard.ts';
import { auditOf, ssoTenant, startSsoTestApi, verifyDomain } from '../helpers/sso.ts';

t.test('SSO settings', async (t) => {
  const sso = await startSsoTestApi();
  t.teardown(() => sso.close());
  const api = sso.api;

  t.test('should answer 402 plan_required with the upgrade link on free and pro', async (t) => {
    for (const plan of ['free', 'pro'] as const) {
      const { auth } = await dashTenant(api, plan);
      const res = await dash(api, 'GET', '/sso', { auth });
      t.same([res.status, res.body], [402, { error: 'plan_required', message: 'The Single sign-on (SSO) feature needs the Team plan or higher', upgrade_url: api.cp.deps.env.UPGRADE_URL }], plan);
      t.equal((await dash(api, 'POST', '/sso/domains', { auth, body: { domain: 'example.com' } })).status, 402);
    }
  });

  t.test('should keep the settings to owners', async (t) => {
    const { auth } = await dashTenant(api, 'team', 'admin');
    const res = await dash(api, 'GET', '/sso', { auth });
    t.same([res.status, res.body.error], [403, 'forbidden_role']);
  });

  t.test('should verify a domain by TXT record and give it to one organization only', async (t) => {
    const a = await ssoTenant(sso);
    const b = await dashTenant(api, 'team');
    const claimed = await dash(api, 'POST', '/sso/domains', { auth: b.auth, body: { domain: a.domain } });
    t.same([claimed.status, claimed.body], [409, { error: 'domain_taken', message: `Email domain ${a.domain} is verified by another organization` }]);
    const fresh = `fresh-${process.pid}.test`;
    const added = await dash(api, 'POST', '/sso/domains', { auth: b.auth, body: { domain: fresh.toUpperCase() } });
    t.same([added.status, added.body.domain, added.body.status, added.body.verification.txt_name], [201, fresh, 'pending', `_folio-challenge.${fresh}`]);
    const failed = await dash(api, 'POST', `/sso/domains/${fresh}/verify`, { auth: b.auth });
    t.same([failed.status, failed.body.error], [409, 'verification_failed']);
    t.match(failed.body.message, `${fresh} is not verified yet: no TXT record at _folio-challenge.${fresh}`);
    sso.dns.txt.set(`_folio-challenge.${fresh}`, [added.body.verification.txt_value]);
    const ok = await dash(api, 'POST', `/sso/domains/${fresh}/verify`, { auth: b.auth });
    t.same([ok.status, ok.body.status, ok.body.verified_at], [200, 'verified', api.clock.now.toISOString()]);
    t.equal((await auditOf(sso, b.orgId, 'sso.domain_verified')).length, 1);
  });

  t.test('should refuse an OIDC issuer that cannot be discovered, with the field named', async (t) => {
    const a = await ssoTenant(sso);
    const res = await dash(api, 'PUT', '/sso/connection', { auth: a.auth, body: { protocol: 'oidc', issuer: 'http://10.0.0.1/', client_id: 'x', client_secret: 'y' } });
    t.same([res.status, res.body.error], [400, 'invalid_request']);
    t.match(res.body.message, /^Issuer: OpenID discovery failed/);
    const noSecret = await dash(api, 'PUT', '/sso/connection', { auth: a.auth, body: { protocol: 'oidc', issuer: 'https://login.example.com', client_id: 'x' } });
    t.same(noSecret.body, { error: 'invalid_request', message: 'Client secret is required for a new OIDC connection' });
    const badXml = await dash(api, 'PUT', '/sso/connection', { auth: a.auth, body: { protocol: 'saml', metadata_xml: '<nope/>' } });
    t.same(badXml.body, { error: 'invalid_request', message: 'Metadata XML: Unexpected document; expected SAML metadata with an EntityDescriptor holding an IDPSSODescriptor' });
  });

  t.test('should refuse password sign-in under Require SSO, except the owner\'s audited break-glass', async (t) => {
    const a = await ssoTenant(sso);
    const xml = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/e"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIBfake</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    t.equal((await dash(api, 'PUT', '/sso/connection', { auth: a.auth, body: { protocol: 'saml', metadata_xml: xml } })).status, 200);
    const member = await addUser(api, a.orgId, 'editor', `writer@${a.domain}`);
    const outsider = await addUser(api, a.orgId, 'editor', `contractor-${process.pid}@elsewhere.test`);
    t.ok(await signIn(api, member.email), 'passwords work until Require SSO is on');
    const on = await dash(api, 'PATCH', '/sso/connection', { auth: a.auth, body: { require_sso: true } });
    t.same([on.status, on.body.connection.require_sso], [200, true]);
    t.equal((await auditOf(sso, a.orgId, 'sso.require_changed')).length, 1);
    const refused = await dash(api, 'POST', '/auth/sign-in', { body: { email: member.email, password: PASSWORD } });
    t.same([refused.status, refused.body], [403, { error: 'sso_required', message: `Your organization requires single sign-on for ${a.domain} addresses; use "Continue with SSO"` }]);
    const wrong = await dash(api, 'POST', '/auth/sign-in', { body: { email: member.email, password: 'not the password at all' } });
    t.same([wrong.status, wrong.body.error], [401, 'invalid_credentials'], 'a wrong password learns nothing about the policy');
    t.ok(await signIn(api, outsider.email), 'addresses outside the verified domains keep their password');
    t.ok(await signIn(api, a.owner.email), 'the owner signs in with the password');
    const glass = await auditOf(sso, a.orgId, 'session.break_glass');
    t.same(glass.map((e: any) => [e.actor_user_id, e.target_name]), [[a.owner.userId, a.owner.email]]);
    t.equal((await dash(api, 'PATCH', '/sso/connection', { auth: a.auth, body: { require_sso: false } })).status, 200);
    t.ok(await signIn(api, member.email), 'passwords work again once it is off');
  });

  t.test('should stop SSO sign-in and Require SSO when the plan no longer includes SSO', async (t) => {
    const a = await ssoTenant(sso);
    const xml = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/e"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIBfake</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    t.equal((await dash(api, 'PUT', '/sso/connection', { auth: a.auth, body: { protocol: 'saml', metadata_xml: xml } })).status, 200);
    t.equal((await dash(api, 'PATCH', '/sso/connection', { auth: a.auth, body: { require_sso: true } })).status, 200);
    const member = await addUser(api, a.orgId, 'viewer', `reader@${a.domain}`);
    const started = await dash(api, 'POST', '/auth/sso/start', { body: { email: member.email } });
    t.equal(started.status, 200);
    t.match(started.body.redirect_url, /^https:\/\/idp\.example\/sso\?SAMLRequest=/);
    await api.cp.m.Organization.updateOne({ _id: a.orgId }, { $set: { plan: 'pro' } });
    const refused = await dash(api, 'POST', '/auth/sso/start', { body: { email: member.email } });
    t.same([refused.status, refused.body], [402, { error: 'plan_required', message: 'The Single sign-on (SSO) feature needs the Team plan or higher', upgrade_url: api.cp.deps.env.UPGRADE_URL }]);
    t.ok(await signIn(api, member.email), 'passwords work again on a plan without SSO');
  });

  t.test('should verify the domain for the test helpers too', async (t) => {
    const { auth } = await dashTenant(api, 'enterprise');
    await verifyDomain(sso, auth, `ent-${process.pid}.test`);
    t.equal((await dash(api, 'GET', '/sso', { auth })).body.domains[0].status, 'verified');
  });
});

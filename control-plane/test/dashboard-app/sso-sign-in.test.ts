/**
 * Single sign-on in real Chromium, end to end through real identity providers on 127.0.0.1:
 * the sign-in page's "Continue with SSO" with a work email, the IdP (oidc-provider; samlify's
 * auto-posting page), and back signed in with the organization in the header. Then what a person
 * sees when it fails (an unknown domain; a replayed SAML response posted again), and the owner's
 * Single sign-on page. Checked with axe-core and at 390 px.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { dash } from '../helpers/dashboard.ts';
import { launchBrowser, overflowing, seriousViolations } from '../helpers/dashboard-browser.ts';
import { startOidcIdp } from '../helpers/oidc-idp.ts';
import { startSamlIdp } from '../helpers/saml-idp.ts';
import { ssoTenant, startSsoTestApi } from '../helpers/sso.ts';

t.test('dashboard: single sign-on in Chromium', async (t) => {
  const sso = await startSsoTestApi();
  t.teardown(() => sso.close());
  const { origin } = sso;
  const oidcIdp = await startOidcIdp(`${origin}/dashboard/api/auth/sso/oidc/callback`);
  t.teardown(() => oidcIdp.close());
  let samlMetadataUrl = '';
  const samlIdp = await startSamlIdp(() => samlMetadataUrl);
  t.teardown(() => samlIdp.close());
  sso.allowHosts.push(oidcIdp.host, samlIdp.host);

  const oidcOrg = await ssoTenant(sso);
  t.equal((await dash(sso.api, 'PUT', '/sso/connection', { auth: oidcOrg.auth, body: { protocol: 'oidc', issuer: oidcIdp.issuer, client_id: oidcIdp.clientId, client_secret: oidcIdp.clientSecret } })).status, 200);
  const samlOrg = await ssoTenant(sso);
  samlMetadataUrl = `${origin}/dashboard/api/auth/sso/saml/${samlOrg.orgId}/metadata`;
  t.equal((await dash(sso.api, 'PUT', '/sso/connection', { auth: samlOrg.auth, body: { protocol: 'saml', metadata_url: `${samlIdp.url}/metadata` } })).status, 200);
  const orgName = async (id: string) => (await sso.api.cp.m.Organization.findById(id).lean())!.name;

  const browser: Browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // Generous: the dashboard is built on first need, which takes a while on a loaded machine.
    page.setDefaultTimeout(90_000);
    page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('dialog', (d) => d.accept());
    return page;
  }
  async function continueWithSso(page: Page, email: string) {
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
  }

  t.test('should sign in through the OpenID provider and land in the organization', async (t) => {
    const page = await newPage();
    const email = `ada@${oidcOrg.domain}`;
    oidcIdp.user = email;
    await continueWithSso(page, email);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    t.equal(new URL(page.url()).pathname, '/projects');
    t.match(await page.locator('header .org').textContent(), await orgName(oidcOrg.orgId));
    t.match(await page.locator('header .account summary').textContent(), email);
    await page.context().close();
  });

  t.test('should sign in through the SAML IdP\'s page and land in the organization', async (t) => {
    const page = await newPage();
    const email = `grace@${samlOrg.domain}`;
    samlIdp.user = email;
    await continueWithSso(page, email);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    t.match(await page.locator('header .org').textContent(), await orgName(samlOrg.orgId));
    t.equal(samlIdp.requests.length, 1, 'SP-initiated: the IdP received our AuthnRequest');
    await page.context().close();
  });

  t.test('should say why when the email\'s domain has no SSO', async (t) => {
    const page = await newPage();
    await continueWithSso(page, 'someone@no-sso-here.test');
    await page.getByText('Email: No organization uses single sign-on for this email domain; sign in with your password, or ask your administrator which address to use.').waitFor();
    t.equal(new URL(page.url()).pathname, '/sign-in');
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
    await page.context().close();
  });

  t.test('should show a replayed SAML response\'s refusal on the sign-in page', async (t) => {
    await dash(sso.api, 'PATCH', '/sso/connection', { auth: samlOrg.auth, body: { allow_idp_initiated: true } });
    const metadata = await (await fetch(samlMetadataUrl)).text();
    const response = await samlIdp.response(metadata, { email: `replay@${samlOrg.domain}` });
    const acs = `${origin}/dashboard/api/auth/sso/saml/${samlOrg.orgId}/acs`;
    const page = await newPage();
    // The IdP's page: a cross-site form post, twice.
    const form = `<!doctype html><title>IdP</title><form method="post" action="${acs}"><input type="hidden" name="SAMLResponse" value="${response}"><button>Post</button></form>`;
    await page.route(`${samlIdp.url}/app`, (route) => route.fulfill({ contentType: 'text/html', body: form }));
    await page.goto(`${samlIdp.url}/app`);
    await page.getByRole('button', { name: 'Post' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.context().clearCookies();
    await page.goto(`${samlIdp.url}/app`);
    await page.getByRole('button', { name: 'Post' }).click();
    await page.getByText('This sign-in answer was already used; sign in again.').waitFor();
    t.equal(new URL(page.url()).search, '?sso_error=sso_replayed');
    await page.context().close();
  });

  t.test('should let the owner see the SSO settings', async (t) => {
    const page = await newPage();
    await page.context().addCookies([{ name: 'folio_session', value: samlOrg.auth.token, url: origin }]);
    await page.goto(`${origin}/settings/sso`);
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await page.getByText(samlMetadataUrl.replace('/metadata', '/acs')).waitFor();
    t.equal(await page.getByRole('link', { name: 'Download SP metadata (XML)' }).getAttribute('href'), samlMetadataUrl);
    await page.locator(`[data-domain="${samlOrg.domain}"]`).getByText('verified').first().waitFor();
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
    await page.setViewportSize({ width: 390, height: 844 });
    t.same(await overflowing(page), [], 'nothing overflows at 390 px');
    t.same(errors, [], 'no console error');
    await page.context().close();
  });
});

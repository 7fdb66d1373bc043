/**
 * The domains page in real Chromium with certificates managed by the platform: a subdomain shows
 * its CNAME record, a failed certificate shows its reason in plain words with "Try again now"
 * (which orders again), and an issued one its expiry. The ACME directory configured here refuses
 * connections (nothing listens on its port), which is a real failure the scheduler records.
 */
import t from 'tap';
import { addMember, launchBrowser, seriousViolations, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { freePort } from '../helpers/pebble.ts';

const PASSWORD = 'a long enough passphrase';
const OWNER = 'certs-owner@example.com';
const IDENTIFIER = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;

t.test('dashboard: domain certificates', async (t) => {
  const closedPort = await freePort();
  const tp = await startTestPlatform({ ACME_DIRECTORY_URL: `https://127.0.0.1:${closedPort}/dir`, SITE_HTTPS_PORT: '0', ACME_CHECK_INTERVAL_MS: '86400000', DOMAIN_CNAME_TARGET: 'sites.folio.test' });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(m, tp.orgId, OWNER, 'owner', PASSWORD);
  const project = (await tp.api('POST', '/projects', { name: 'Cert docs', slug: 'cert-docs' })).body;
  const verified = (hostname: string) => m.Domain.create({ hostname, org_id: tp.orgId, project_id: project.id, status: 'verified', verification_token: 'token', verified_at: new Date() });
  await verified('docs.certs.example');
  await verified('api.certs.example');
  // The first order of docs fails (the directory refuses connections); api's certificate is issued.
  const first = await tp.p.tls!.scheduler.check();
  t.same([first.issued, first.failed.sort()], [[], ['api.certs.example', 'docs.certs.example']]);
  const expires = new Date(Date.now() + 80 * 24 * 3600_000);
  await m.Certificate.updateOne({ _id: 'api.certs.example' }, { $set: { status: 'issued', serial: '01', not_after: expires, issued_at: new Date(), last_error: null, attempts: 0, next_attempt_at: null } });

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const pageErrors: string[] = [];
  const page = await signedInPage(browser, origin, OWNER, PASSWORD, pageErrors);
  await page.goto(`${origin}/projects/${project.id}/domains`);
  await page.getByRole('heading', { level: 1, name: 'Custom domains' }).waitFor();

  t.test('should show the CNAME record and a failed certificate\'s reason in plain words', async (t) => {
    const row = page.locator('li.domain[data-hostname="docs.certs.example"]');
    await row.locator('[data-certificate="failed"]').waitFor();
    const text = await row.innerText();
    t.match(text, 'Create this CNAME record at your DNS provider:');
    t.match(text, 'sites.folio.test');
    t.match(text, 'HTTPS certificate');
    t.match(text, 'The certificate authority could not be reached. The order will be tried again later.');
    t.match(text, /Next attempt: /);
    t.same([...text.matchAll(IDENTIFIER)].map((x) => x[0]), [], 'no internal names');
    t.same(await seriousViolations(page), [], 'no serious accessibility violations');
  });

  t.test('should order again on "Try again now"', async (t) => {
    const before = (await m.Certificate.findById('docs.certs.example').lean())!;
    await page.locator('li.domain[data-hostname="docs.certs.example"]').getByRole('button', { name: 'Try again now' }).click();
    // The retry ran an order at once (it fails again here): the second attempt is recorded.
    for (let i = 0; i < 300 && (await m.Certificate.findById('docs.certs.example').lean())!.attempts === before.attempts; i++) await new Promise((r) => setTimeout(r, 100));
    t.equal((await m.Certificate.findById('docs.certs.example').lean())!.attempts, before.attempts + 1);
  });

  t.test('should show an issued certificate with its expiry', async (t) => {
    const row = page.locator('li.domain[data-hostname="api.certs.example"]');
    await row.locator('[data-certificate="issued"]').waitFor();
    const text = await row.innerText();
    t.match(text, 'The site is served over HTTPS, and plain HTTP visits are redirected to it.');
    t.match(text, /valid until .+, renewed automatically/);
    t.equal(await row.getByRole('button', { name: 'Try again now' }).count(), 0, 'nothing to retry');
    t.same(pageErrors, [], 'no page error');
  });
});

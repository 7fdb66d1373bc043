/**
 * Small things people notice, in real Chromium: a signed-out visit logs no failed request, the
 * claim form says a short password under the password (a differing repeat under the repeat), the
 * slug rename says what the address becomes only once the new slug differs, and the domains page
 * takes the host of a pasted address.
 */
import t from 'tap';
import { issueOwnerClaim } from '../../src/dashboard/owner-claim.ts';
import { addMember, launchBrowser } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';
const OWNER = 'details-owner@example.com';

t.test('dashboard: form details', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(m, tp.orgId, OWNER, 'owner', PASSWORD);
  const created = await tp.api('POST', '/projects', { name: 'Acme docs', slug: 'acme-docs' });
  t.equal(created.status, 201, 'project created');
  const projectId = created.body.id as string;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // Generous: the dashboard is built on first need, which takes a while on a loaded machine.
  page.setDefaultTimeout(90_000);
  const consoleErrors: string[] = [];
  const failed: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('response', (res) => { if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`); });
  page.on('dialog', (d) => d.accept());
  const h1 = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

  t.test('should load signed out without a failed request or a console error', async (t) => {
    await page.goto(`${origin}/settings/plan`);
    await h1('Sign in to Folio');
    await page.goto(`${origin}/sign-in`);
    await h1('Sign in to Folio');
    await page.waitForLoadState('networkidle');
    t.same(failed, [], 'no request answered with an error status');
    t.same(consoleErrors, [], 'nothing logged as an error');
  });

  t.test('should show a short password under the password and a differing repeat under the repeat', async (t) => {
    const link = await issueOwnerClaim(m, tp.p.cp.deps.env, tp.orgId, new Date());
    await page.goto(link);
    await h1('Claim your organization');
    const password = page.getByLabel('New password');
    const repeat = page.getByLabel('Repeat the password');
    await page.getByLabel('Email').fill('claimer@example.com');
    await password.fill('short');
    await repeat.fill('short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByText('Use at least 10 characters.').waitFor();
    t.equal(await password.getAttribute('aria-invalid'), 'true', 'the password is marked');
    t.match(await password.getAttribute('aria-describedby'), /-error/, 'the message is tied to the password');
    t.equal(await repeat.getAttribute('aria-invalid'), null, 'the repeat is not marked');
    t.equal(await page.locator('.field', { has: repeat }).locator('.field-error').count(), 0, 'nothing under the repeat');
    await password.fill(PASSWORD);
    await repeat.fill(`${PASSWORD}!`);
    await page.getByText('The two passwords differ.').waitFor();
    t.equal(await repeat.getAttribute('aria-invalid'), 'true', 'a differing repeat is the repeat\'s problem');
    t.equal(await password.getAttribute('aria-invalid'), null);
  });

  t.test('should say what the address becomes only once the new slug differs', async (t) => {
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await h1('Projects');
    await page.goto(`${origin}/projects/${projectId}/settings`);
    const section = page.getByRole('region', { name: 'Rename the slug' });
    await section.waitFor();
    await section.getByLabel('New slug').waitFor();
    t.notMatch(await section.innerText(), /acme-docs becomes/, 'nothing said before a new slug is typed');
    await section.getByLabel('New slug').fill('acme-handbook');
    await section.locator('li', { hasText: 'acme-docs becomes acme-handbook' }).waitFor();
    t.pass('the change is said once the slug differs');
    await section.getByLabel('New slug').fill('acme-docs');
    t.notMatch(await section.innerText(), /acme-docs becomes/, 'nothing said when it is the same slug again');
  });

  t.test('should take the host of a pasted address on the domains page', async (t) => {
    await page.goto(`${origin}/projects/${projectId}/domains`);
    await h1('Custom domains');
    await page.getByLabel('Hostname').fill('https://Docs.Example.com/guide/intro?x=1');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.locator('.rows strong', { hasText: 'docs.example.com' }).waitFor();
    t.equal(await page.getByRole('alert').count(), 0, 'no error');
    const domains = await m.Domain.find({ project_id: projectId }).lean();
    t.same(domains.map((d) => d.hostname), ['docs.example.com']);
  });
});

/**
 * Connecting GitHub in real Chromium: the owner opens Settings → GitHub, clicks "Connect GitHub",
 * the stand-in GitHub's install page sends the browser back to the setup page with an
 * installation id, a code and the link's state, and the installation appears connected; then
 * the owner disconnects it. Checked with axe-core and at 390 px.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import { launchBrowser, overflowing, seriousViolations } from '../helpers/dashboard-browser.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const EMAIL = 'github-owner@example.com';
const PASSWORD = 'a long enough passphrase';

t.test('dashboard: connect GitHub', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const user = await m.User.create({ email: EMAIL, name: 'Grace', password_hash: await hashPassword(PASSWORD), created_at: new Date() });
  await m.Membership.create({ org_id: tp.orgId, user_id: user._id, role: 'owner', created_at: new Date() });
  await gh.repo('AcmeCorp/Docs');
  const installation = gh.install('AcmeCorp');
  gh.browserInstall = { installation, user: gh.user('grace', [installation]), setupUrl: `${origin}/settings/github/setup` };

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // Generous: the dashboard is built on first need, which takes a while on a loaded machine.
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.accept());

  t.test('should connect an installation through GitHub\'s install page and list it', async (t) => {
    await page.goto(`${origin}/sign-in?next=${encodeURIComponent('/settings/github')}`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'GitHub' }).waitFor();
    // The list loads after the heading: wait for it rather than count at once.
    await page.getByText('None yet.').waitFor();
    t.equal(await page.getByText('None yet.').count(), 1);
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByText('Connected the installation on AcmeCorp.').waitFor();
    t.equal(new URL(page.url()).pathname, '/settings/github');
    t.ok(gh.requests.some((r) => r === 'GET /apps/folio-test/installations/new'), 'went through GitHub\'s install page');
    t.equal((await m.GithubInstallation.findById(installation.id).lean())?.org_id, tp.orgId);
    await page.getByText(`installation ${installation.id}`).waitFor();
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
    await page.setViewportSize({ width: 390, height: 844 });
    t.same(await overflowing(page), [], 'nothing overflows at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  t.test('should show GitHub\'s refusal on the setup page', async (t) => {
    await page.goto(`${origin}/settings/github/setup?installation_id=${installation.id}&setup_action=install&code=wrong&state=forged`);
    await page.getByText('Install link: Unexpected value; expected the state of an install link; start again from "Connect GitHub" in the dashboard').waitFor();
    t.equal(await page.getByRole('link', { name: 'Back to GitHub settings' }).count(), 1);
  });

  t.test('should disconnect it', async (t) => {
    await page.goto(`${origin}/settings/github`);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('None yet.').waitFor();
    t.equal(await m.GithubInstallation.countDocuments({}), 0);
    t.same(errors, [], 'no console error');
  });
});

/**
 * The dashboard follows deployments as they happen, in real Chromium against the whole platform
 * (API, git server, a builder worker): with the Deployments page open, `git push` (the CLI) makes
 * a new deployment appear and go live without a reload, with its trigger, commit message and
 * author; a deployment with a failed page shows amber and lists the page in its build log; a
 * failed deployment leaves the project active, and the page says which commit the site serves.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import { launchBrowser, overflowing, screenshot, seriousViolations } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);
const EMAIL = 'live-owner@example.com';
const PASSWORD = 'a long enough passphrase';
const page_ = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
/** Generous: a build on a loaded 2-core machine. */
const BUILD_MS = 180_000;

t.test('dashboard: deployments as they happen', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const user = await m.User.create({ email: EMAIL, name: 'Ada', password_hash: await hashPassword(PASSWORD), created_at: new Date() });
  await m.Membership.create({ org_id: tp.orgId, user_id: user._id, role: 'owner', created_at: new Date() });
  const slug = `live-${process.pid}`;
  const project = (await tp.api('POST', '/projects', { name: 'Live', slug })).body;
  tp.startWorker();

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // The dashboard is built on first need, which takes a while on a loaded machine.
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  let loads = 0;
  page.on('load', () => loads++);

  const wc = await tp.workingCopy(slug, { 'docs.json': JSON.stringify({ name: 'Live' }), 'docs/index.mdx': page_('Welcome', 'Hello.') });
  /** Commits the working copy's last change again with `message`, pushes it with the CLI and answers its commit. */
  const push = async (message: string) => {
    await run('git', ['commit', '--amend', '-q', '-m', message], { cwd: wc.dir, env: { ...process.env, GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' } });
    return wc.push();
  };
  const row = (sha: string) => page.locator('tbody tr', { hasText: sha.slice(0, 7) });

  t.test('should show a pushed deployment appear and go live without a reload', async (t) => {
    await page.goto(`${origin}/sign-in?next=${encodeURIComponent(`/projects/${project.id}/deployments`)}`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No deployments yet.').waitFor();
    const loadsBefore = loads;

    const sha = await push('Add the welcome page');
    await row(sha).locator('.badge-deployed').waitFor({ timeout: BUILD_MS });
    t.equal(loads, loadsBefore, 'no reload');
    const cells = await row(sha).locator('td').allTextContents();
    t.same(cells.slice(1, 3), [`${sha.slice(0, 7)}Add the welcome pageAda <ada@example.com>`, 'git push']);
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
  });

  let partial = '';
  t.test('should show a deployment with a failed page in amber, and list the page in its build log', async (t) => {
    await wc.write({ 'docs/broken.mdx': page_('Broken', 'Broken <Unclosed\n\nmore') });
    partial = await push('Add a broken page');
    await row(partial).locator('.badge-partial').waitFor({ timeout: BUILD_MS });
    t.equal(await row(partial).locator('.badge').textContent(), 'deployed with 1 failed page');
    await screenshot(page, 'deployments-live');
    await row(partial).getByRole('link').click();
    await page.getByTestId('build-log').waitFor();
    const log = (await page.getByTestId('build-log').textContent())!.split('\n');
    const [d] = (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data;
    t.equal(d.id, decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!));
    t.same(log.filter((l) => l.startsWith('error: ')), [`error: ${d.error}`], 'the failed page with file:line:column');
    t.match(d.error, /^docs\/broken\.mdx:\d+:\d+: /);
    t.equal(log.at(-1), 'deployed 2 pages (1 failed)');
    await screenshot(page, 'deployment-log');
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
    await page.setViewportSize({ width: 390, height: 844 });
    t.same(await overflowing(page), [], 'nothing overflows at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  t.test('should say which commit the site still serves after a failed deployment', async (t) => {
    await page.getByRole('link', { name: 'All deployments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deployments' }).waitFor();
    await wc.write({ 'docs.json': '{ "name": 1 }' });
    const bad = await push('Break the configuration');
    await row(bad).locator('.badge-failed').waitFor({ timeout: BUILD_MS });
    await page.getByTestId('project-health').waitFor();
    t.equal(await page.getByTestId('project-health').textContent(), `Last deployment failed; the site still serves ${partial.slice(0, 7)}.`);
    t.equal((await tp.api('GET', `/projects/${project.id}`)).body.status, 'active');
    await page.goto(`${origin}/projects`);
    await page.getByTestId('project-health').waitFor();
    t.match(await page.locator('li.row', { hasText: 'Live' }).textContent(), /active/);
    t.same(errors, [], 'no console error');
  });
});

/**
 * The plan page's agent credits in real Chromium: a Pro organization sees "N of 5000 used" and
 * what spends credits; a free organization (no credits) reads "None on your plan", never
 * "0 of 0 used; the limit is reached"; inline AI is a feature of the plan, not "coming soon"; a
 * Team organization past its month's credits sees the overage line and what it will be billed.
 */
import t from 'tap';
import { consumeQuota } from '../../src/entitlements/quota.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';

t.test('plan page: agent credits', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const pro = await tp.newOrg('credits-pro');
  await m.Organization.updateOne({ _id: pro.orgId }, { $set: { plan: 'pro' } });
  await consumeQuota(m, pro.orgId, 'agent_credits_monthly', 42, new Date());
  await addMember(m, pro.orgId, 'credits-pro@example.com', 'owner', PASSWORD);
  const free = await tp.newOrg('credits-free');
  await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
  await addMember(m, free.orgId, 'credits-free@example.com', 'owner', PASSWORD);
  const team = await tp.newOrg('credits-team');
  await m.Organization.updateOne({ _id: team.orgId }, { $set: { plan: 'team' } });
  await consumeQuota(m, team.orgId, 'agent_credits_monthly', 25_137, new Date());
  await addMember(m, team.orgId, 'credits-team@example.com', 'owner', PASSWORD);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];

  const usage = async (email: string) => {
    const page = await signedInPage(browser, origin, email, PASSWORD, errors);
    await page.goto(`${origin}/settings/plan`);
    await page.getByRole('heading', { level: 1, name: 'Plan and usage' }).waitFor();
    const row = await page.locator('.meters li', { hasText: 'Agent credits per month' }).innerText();
    const main = await page.locator('main').innerText();
    await page.context().close();
    return { row, main };
  };

  t.test('should show a Pro organization its credits used and what spends them', async (t) => {
    const { row, main } = await usage('credits-pro@example.com');
    t.match(row, '42 of 5000 used');
    t.notMatch(row, 'limit is reached');
    t.match(row, 'Inline AI suggestions in the editor and writing agent runs spend credits: 1 credit for every 1,000 tokens the model reads and writes, rounded up per call.');
    t.notMatch(main, /Coming soon[^\n]*AI writing help/, 'inline AI is built');
    t.match(main, 'AI writing help');
    t.notMatch(main, /Coming soon[^\n]*Writing agent/, 'the writing agent is built');
    t.match(main, 'Writing agent');
  });

  t.test('should show a Team organization past its credits the month\'s overage and its price', async (t) => {
    const { row } = await usage('credits-team@example.com');
    t.match(row, '25137 of 25000 used; 137 more billed at 0.01 USD each at the month\'s end');
    t.match(row, /Overage this month: 137 credits past the cap at 0\.01 USD each, 1\.37 USD so far, billed on /);
  });

  t.test('should tell a free organization it has no credits, not that a limit of 0 is reached', async (t) => {
    const { row } = await usage('credits-free@example.com');
    t.match(row, 'None on your plan');
    t.notMatch(row, '0 of 0');
    t.notMatch(row, 'Overage');
    t.same(errors, []);
  });
});

/**
 * The project settings' chat notifications in real Chromium: an owner adds a Slack channel
 * (pointing at a receiver on 127.0.0.1), sees it listed with its address masked, sends a test
 * message that the receiver gets, is told in words what a refused address is, and removes it.
 * Nothing on the way shows an internal name.
 */
import t from 'tap';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { jsonReceiver } from '../helpers/json-receiver.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';
const OWNER = 'chat-owner@example.com';
const IDENTIFIER = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;

t.test('dashboard: chat notifications', async (t) => {
  const receiver = await jsonReceiver();
  const { got, host } = receiver;
  t.teardown(() => receiver.close());
  const tp = await startTestPlatform({}, { services: { fetchAllowHosts: [host] } });
  t.teardown(() => tp.close());
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(tp.p.cp.m, tp.orgId, OWNER, 'owner', PASSWORD);
  const projectId = (await tp.api('POST', '/projects', { name: 'Acme docs', slug: 'acme-chat' })).body.id as string;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const page = await signedInPage(browser, origin, OWNER, PASSWORD, errors);
  await page.goto(`${origin}/projects/${projectId}/settings`);
  const section = page.getByRole('region', { name: 'Chat notifications' });
  await section.getByText('No channels yet.').waitFor();

  t.test('should refuse a private address in words', async (t) => {
    await section.getByLabel('Webhook address').fill('http://10.0.0.7/hook');
    await section.getByRole('button', { name: 'Add channel' }).click();
    await section.getByRole('alert').waitFor();
    t.equal(await section.getByRole('alert').innerText(), 'URL resolves to a private address (10.0.0.7); only public addresses are allowed');
  });

  t.test('should add a Slack channel, show it masked and send a test message', async (t) => {
    await section.getByLabel('App').selectOption('slack');
    await section.getByLabel('Webhook address').fill(`http://${host}/services/T1/B2/verysecret`);
    await section.getByLabel('An agent or workflow run finished (coming soon)').uncheck();
    await section.getByRole('button', { name: 'Add channel' }).click();
    await section.locator('.chat-channel').waitFor();
    const row = await section.locator('.chat-channel').innerText();
    t.match(row, `Slack http://${host}/services/…cret`);
    t.match(row, 'Sends: A deployment succeeded; A deployment failed (with the failed pages and their errors); A reader found a page unhelpful (with their comment).');
    t.notMatch(await page.content(), /verysecret/, 'the whole address is not on the page');
    await section.getByRole('button', { name: 'Send test message' }).click();
    await section.getByText('Test message sent.').waitFor();
    t.equal(got.length, 1);
    t.match(got[0].text, 'Test notification for Acme docs');
    const text = await section.innerText();
    t.same([...text.matchAll(IDENTIFIER)].map((m) => m[0]), [], 'no internal names');
  });

  t.test('should say the plan lacks the feature, and offer no form, on free', async (t) => {
    await tp.p.cp.m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'free' } });
    await page.reload();
    await section.getByText('Chat notifications need the Pro plan.').waitFor();
    t.equal(await section.getByRole('button', { name: 'Add channel' }).count(), 0, 'no form');
    t.equal(await section.locator('.chat-channel').count(), 1, 'the channel made on pro is still listed');
    await tp.p.cp.m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'enterprise' } });
    await page.reload();
    await section.getByRole('button', { name: 'Add channel' }).waitFor();
    t.equal(await section.getByText('Chat notifications need the Pro plan.').count(), 0);
  });

  t.test('should remove the channel', async (t) => {
    await section.getByRole('button', { name: 'Remove' }).click();
    await section.getByText('No channels yet.').waitFor();
    t.equal(await tp.p.cp.m.ChatChannel.countDocuments({ project_id: projectId }), 0);
    t.same(errors, [], 'no page error on the way');
  });
});

/**
 * A free organization in real Chromium: while one member edits a page, another member who opens
 * it sees it read-only with the writer's name (and the plan page's offer), follows the writer's
 * typing, and cannot change it.
 */
import t from 'tap';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { editorText, until } from './collab-clients.ts';

const PASSWORD = 'a long enough passphrase';


t.test('free: a page being edited by someone else opens read-only with their name', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const org = await createOrganization(tp.p.cp.m, `free-collab-${process.pid}`, 'free');
  const key = (await createApiKey(tp.p.cp.m, { orgId: org._id })).key;
  await addMember(tp.p.cp.m, org._id, 'writer@example.com', 'owner', PASSWORD);
  await tp.p.cp.m.User.updateOne({ email: 'writer@example.com' }, { $set: { name: 'Wendy Writer' } });
  // A second member (made in the database: the free plan's seat limit is about invitations).
  await addMember(tp.p.cp.m, org._id, 'reader@example.com', 'editor', PASSWORD);
  const slug = `free-collab-${process.pid}`;
  const project = (await tp.api('POST', '/projects', { name: 'Free docs', slug }, key)).body;
  await (await tp.workingCopy(slug, { 'docs.json': JSON.stringify({ name: 'Free docs' }), 'guide.mdx': '# Guide\n\nFirst words.\n' }, key)).push();

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const writer = await signedInPage(browser, origin, 'writer@example.com', PASSWORD, errors);
  await writer.goto(`${origin}/projects/${project.id}/editor/guide.mdx`);
  await writer.locator('.cm-content[aria-label="Text of guide.mdx"]').waitFor();
  await until(async () => (await editorText(writer)).includes('First words.'), "the writer's text", 60_000);

  const reader = await signedInPage(browser, origin, 'reader@example.com', PASSWORD, errors);
  await reader.goto(`${origin}/projects/${project.id}/editor/guide.mdx`);
  await reader.getByText('Wendy Writer is editing this page.').waitFor();
  t.pass("the reader sees the writer's name");
  t.equal(await reader.locator('.cm-content').getAttribute('contenteditable'), 'false', 'the reader cannot type');

  await writer.locator('.cm-line', { hasText: 'First words.' }).click();
  await writer.keyboard.press('End');
  await writer.keyboard.type(' More from Wendy.', { delay: 20 });
  await until(async () => (await editorText(reader)).includes('First words. More from Wendy.'), "the writer's typing to reach the reader", 30_000);
  t.pass("the reader follows the writer's typing");
  t.same(errors, [], 'no page errors');
});

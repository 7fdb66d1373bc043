/**
 * On a plan without real-time collaboration, a page someone else is editing opens read-only in
 * the web editor with that person's name and a link to the plan page (the file tree shows them
 * on it), and becomes editable once they leave. Two members of a free organization in two Chromium contexts, on a real platform.
 */
import t from 'tap';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';

t.test('web editor on the free plan', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const org = await createOrganization(m, `free-editor-${process.pid}`, 'free');
  const { key } = await createApiKey(m, { orgId: org._id });
  await addMember(m, org._id, 'ada@example.com', 'owner', PASSWORD);
  await addMember(m, org._id, 'grace@example.com', 'editor', PASSWORD);
  const slug = `free-editor-${process.pid}`;
  const project = (await tp.api('POST', '/projects', { name: 'Free docs', slug }, key)).body;
  const wc = await tp.workingCopy(slug, { 'docs.json': JSON.stringify({ name: 'Free docs' }), 'docs/index.mdx': '---\ntitle: Welcome\n---\n\nHello.\n' }, key);
  await wc.push();

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const url = `${origin}/projects/${project.id}/editor/docs/index.mdx`;
  const ada = await signedInPage(browser, origin, 'ada@example.com', PASSWORD, errors);
  await ada.goto(url);
  await ada.locator('.cm-content[aria-label="Text of docs/index.mdx"]').waitFor();
  await ada.locator('.cm-content').click();
  await ada.keyboard.press('Control+End');
  await ada.keyboard.type('Ada is writing.');

  t.test('should open the page read-only for another member while someone edits it', async (t) => {
    const grace = await signedInPage(browser, origin, 'grace@example.com', PASSWORD, errors);
    await grace.goto(url);
    await grace.getByTestId('read-only').waitFor();
    t.equal(await grace.getByTestId('read-only').textContent(), 'ada is editing this page.', 'says who is editing');
    t.equal(await grace.getByRole('link', { name: 'editing together in real time' }).getAttribute('href'), '/settings/plan', 'links to the plan page');
    t.equal(await grace.locator('.cm-content').getAttribute('contenteditable'), 'false');
    await grace.locator('.cm-content').getByText('Ada is writing.').waitFor();
    t.pass('the reader follows the writer\'s text');
    await grace.locator('[data-path="docs/index.mdx"]').getByTestId('editing-now').waitFor();
    t.equal(await grace.locator('[data-path="docs/index.mdx"]').getByTestId('editing-now').textContent(), 'ada editing now', 'the file tree shows who has the page open');

    // The writer leaves: the page becomes editable for the other member.
    await ada.context().close();
    await grace.getByTestId('read-only').waitFor({ state: 'detached', timeout: 60_000 });
    t.equal(await grace.locator('.cm-content').getAttribute('contenteditable'), 'true', 'editable once the writer left');
    t.same(errors, []);
  });
});

/**
 * Editing together in real Chromium: two people (two browser contexts, each signed in) open the
 * same page in the dashboard's editor, type into the same paragraph at once, and both editors
 * converge to the same text, each showing the other's cursor with their name; the draft holds
 * the shared text.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { getDraft } from '../../src/editor/drafts.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { editorText, until } from './collab-clients.ts';

const PASSWORD = 'a long enough passphrase';
const START = '---\ntitle: Guide\n---\n\nThe shared paragraph.\n';


t.test('two browsers edit the same paragraph at once', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(tp.p.cp.m, tp.orgId, 'ada@example.com', 'owner', PASSWORD);
  await tp.p.cp.m.User.updateOne({ email: 'ada@example.com' }, { $set: { name: 'Ada Lovelace' } });
  await addMember(tp.p.cp.m, tp.orgId, 'grace@example.com', 'editor', PASSWORD);
  await tp.p.cp.m.User.updateOne({ email: 'grace@example.com' }, { $set: { name: 'Grace Hopper' } });
  const slug = `collab-browser-${process.pid}`;
  const project = (await tp.api('POST', '/projects', { name: 'Handbook', slug })).body;
  await (await tp.workingCopy(slug, { 'docs.json': JSON.stringify({ name: 'Handbook' }), 'guide.mdx': START })).push();

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const ada = await signedInPage(browser, origin, 'ada@example.com', PASSWORD, errors);
  const grace = await signedInPage(browser, origin, 'grace@example.com', PASSWORD, errors);
  for (const page of [ada, grace]) {
    await page.goto(`${origin}/projects/${project.id}/editor/guide.mdx`);
    await page.locator('.cm-content[aria-label="Text of guide.mdx"]').waitFor();
  }
  for (const page of [ada, grace]) await until(async () => (await editorText(page)).includes('The shared paragraph.'), 'the shared text in the editor', 60_000);

  // Both click into the same paragraph and type at once.
  const line = (page: Page) => page.locator('.cm-line', { hasText: 'The shared paragraph.' });
  await Promise.all([line(ada).click(), line(grace).click()]);
  await Promise.all([ada.keyboard.press('End'), grace.keyboard.press('Home')]);
  await Promise.all([ada.keyboard.type(' Ada wrote this.', { delay: 20 }), grace.keyboard.type('Grace wrote this. ', { delay: 20 })]);

  await until(async () => {
    const [a, g] = [await editorText(ada), await editorText(grace)];
    return a === g && a.includes('Ada wrote this.') && a.includes('Grace wrote this.');
  }, 'both editors to converge', 30_000);
  const text = await editorText(ada);
  t.match(text, /Grace wrote this\. The shared paragraph\. Ada wrote this\./, 'both edits in the one paragraph');
  t.equal(await editorText(grace), text, 'the same text in both browsers');

  // Each sees the other's cursor, labelled with their name.
  await until(async () => (await ada.locator('.cm-ySelectionInfo', { hasText: 'Grace Hopper' }).count()) > 0, "Grace's cursor in Ada's editor", 15_000);
  await until(async () => (await grace.locator('.cm-ySelectionInfo', { hasText: 'Ada Lovelace' }).count()) > 0, "Ada's cursor in Grace's editor", 15_000);
  t.pass('both cursors shown with names');
  // In each person's colour, although the page's policy blocks the inline styles yCollab uses.
  const caretColour = (page: Page, name: string) => page.locator('.cm-ySelectionCaret', { has: page.locator('.cm-ySelectionInfo', { hasText: name }) }).first().evaluate((el) => getComputedStyle(el).backgroundColor);
  const [graceColour, adaColour] = [await caretColour(ada, 'Grace Hopper'), await caretColour(grace, 'Ada Lovelace')];
  t.match(graceColour, /^rgb\(/, "Grace's caret is coloured");
  t.match(adaColour, /^rgb\(/, "Ada's caret is coloured");

  await until(async () => (await getDraft(tp.p.cp.deps, project.id, 'guide.mdx'))?.content === `${text}\n` || (await getDraft(tp.p.cp.deps, project.id, 'guide.mdx'))?.content === text, 'the draft to hold the shared text', 15_000);
  t.pass('the draft holds the shared text');
  t.same(errors, [], 'no page errors');
});

/**
 * The web editor saving drafts itself, in Chromium against a real platform, with the
 * collaboration socket unreachable (the page then saves through `PUT /file`): typed text reaches
 * the draft with a visible saved state; a tab closed before the save keeps the text in the
 * browser and saves it when the file is opened again; someone else saving in between loads their
 * text, says so and offers ours back; each open file keeps its own undo history.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';

async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

t.test('web editor saving drafts itself', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(tp.p.cp.m, tp.orgId, 'saver@example.com', 'owner', PASSWORD);
  const project = (await tp.api('POST', '/projects', { name: 'Autosave', slug: `autosave-${process.pid}` })).body;
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const page = await signedInPage(browser, origin, 'saver@example.com', PASSWORD, errors);
  // No collaboration socket: the page falls back to saving drafts itself.
  await page.context().routeWebSocket(/\/editor\/collab/, (ws) => ws.close());
  const file = (path: string) => page.evaluate(async (u) => (await fetch(u)).json(), `/dashboard/api/projects/${project.id}/editor/file?path=${encodeURIComponent(path)}`);
  const saved = (p: Page) => p.getByTestId('save-state').getByText('Saved', { exact: true }).waitFor();
  const open = async (p: Page, path: string) => {
    await p.goto(`${origin}/projects/${project.id}/editor/${path}`);
    await p.locator(`.cm-content[aria-label="Text of ${path}"]`).waitFor();
  };
  const typeAtEnd = async (p: Page, text: string) => {
    await p.locator('.cm-content').click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(text);
  };

  await page.goto(`${origin}/projects/${project.id}/editor`);
  for (const title of ['One', 'Two']) {
    await page.getByRole('button', { name: 'New page' }).click();
    await page.getByLabel('Title').fill(title);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.locator(`.cm-content[aria-label="Text of ${title.toLowerCase()}.mdx"]`).waitFor();
  }

  t.test('should save what is typed to the draft and say so', async (t) => {
    await open(page, 'one.mdx');
    await typeAtEnd(page, 'First words.');
    await page.getByTestId('save-state').getByText(/Unsaved changes|Saving…|Saved/).waitFor();
    await saved(page);
    t.equal((await file('one.mdx')).content, '---\ntitle: One\n---\n\nFirst words.');
  });

  t.test('should keep each file\'s undo history when switching files', async (t) => {
    await page.getByTestId('file-tree').getByRole('link', { name: /two\.mdx/ }).click();
    await page.locator('.cm-content[aria-label="Text of two.mdx"]').waitFor();
    await typeAtEnd(page, 'Second file.');
    await saved(page);
    await page.getByTestId('file-tree').getByRole('link', { name: /one\.mdx/ }).click();
    await page.locator('.cm-content[aria-label="Text of one.mdx"]').waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+z');
    await saved(page);
    t.notMatch(await editorText(page), /First words\./, 'undo in one.mdx takes back its own typing');
    t.match((await file('two.mdx')).content, /Second file\.$/, 'two.mdx keeps its text');
  });

  t.test('should keep text typed just before the tab closed and save it when the file opens again', async (t) => {
    const tab = await page.context().newPage();
    await open(tab, 'two.mdx');
    await typeAtEnd(tab, ' Typed as the tab closed.');
    await tab.close();
    const again = await page.context().newPage();
    await open(again, 'two.mdx');
    t.match(await editorText(again), /Typed as the tab closed\.$/);
    await saved(again);
    t.match((await file('two.mdx')).content, /Typed as the tab closed\.$/);
    await again.close();
  });

  t.test('should load another person\'s newer text and offer ours back', async (t) => {
    await open(page, 'one.mdx');
    // Someone else saves the draft in between.
    await page.evaluate(async (id) => {
      const session = await (await fetch('/dashboard/api/session')).json();
      await fetch(`/dashboard/api/projects/${id}/editor/file`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token }, body: JSON.stringify({ path: 'one.mdx', content: '---\ntitle: One\n---\n\nTheir words.' }) });
    }, project.id);
    await typeAtEnd(page, ' Mine.');
    await page.getByText(/saved this file while you were typing; their text is loaded now\./).waitFor();
    t.match(await editorText(page), /Their words\.$/);
    await page.getByRole('button', { name: 'Put my text back' }).click();
    await saved(page);
    t.match((await file('one.mdx')).content, / Mine\.$/, 'our text is saved over theirs only when asked');
    t.same(errors, []);
  });
});

/**
 * The web editor in real Chromium against the whole platform (API, managed Git repository, a
 * builder worker): create a page, type, see it saved to its draft as typed, publish it and see the
 * site serve it; rename a page with its links updated and follow the old URL; close the tab while
 * typing and find the text again; a `git push` that lands while a draft is open is merged when
 * publishing, and a push that changes the same lines shows both sides to resolve; a viewer reads
 * the files without being able to change them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { addMember, launchBrowser, screenshot, seriousViolations, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);
const PASSWORD = 'a long enough passphrase';
const page_ = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
/** Generous: a build on a loaded 2-core machine. */
const BUILD_MS = 240_000;
/** A 2×2 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

/** The dashboard API from inside the page (its session cookie). */
async function dashGet(page: Page, path: string): Promise<any> {
  return page.evaluate(async (p) => (await fetch(`/dashboard/api${p}`)).json(), path);
}

/** The text of the editor as CodeMirror holds it. */
async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

/** Waits until the draft of `file` matches `re` (the editor saves as it is typed); answers its text. */
async function draftMatches(page: Page, projectId: string, file: string, re: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const f = await dashGet(page, `/projects/${projectId}/editor/file?path=${encodeURIComponent(file)}`);
    if (typeof f.content === 'string' && re.test(f.content)) return f.content;
    if (Date.now() > deadline) throw new Error(`the draft of ${file} never matched ${re}: ${JSON.stringify(f.content)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Opens `file` in the editor and waits until it can be typed in. */
async function openFile(page: Page, origin: string, projectId: string, file: string): Promise<void> {
  await page.goto(`${origin}/projects/${projectId}/editor/${file}`);
  await page.locator('.cm-content[aria-label="Text of ' + file + '"]').waitFor();
}

/** Types `text` at the end of the open file. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

t.test('web editor', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(m, tp.orgId, 'writer@example.com', 'owner', PASSWORD);
  await addMember(m, tp.orgId, 'reader@example.com', 'viewer', PASSWORD);
  const slug = `editor-${process.pid}`;
  const project = (await tp.api('POST', '/projects', { name: 'Handbook', slug })).body;
  const pid = project.id as string;
  tp.startWorker();
  const wc = await tp.workingCopy(slug, {
    'docs.json': JSON.stringify({ name: 'Handbook' }),
    'docs/index.mdx': page_('Welcome', 'Hello.'),
    'docs/guide.mdx': page_('Guide', 'First line of the guide.\n\nSecond paragraph of the guide.'),
  });
  const first = await wc.push();
  await tp.waitForDeployment(pid, (d) => d.commit_sha === first && d.status === 'deployed', BUILD_MS);
  /** Brings the working copy up to the repository's head (the editor commits too). */
  const pull = async () => {
    await run('git', ['fetch', '-q', 'origin'], { cwd: wc.dir });
    await run('git', ['reset', '-q', '--hard', 'origin/main'], { cwd: wc.dir });
  };
  const deployedAt = async (sha: string) => tp.waitForDeployment(pid, (d) => d.commit_sha === sha, BUILD_MS);

  const browser: Browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const page = await signedInPage(browser, origin, 'writer@example.com', PASSWORD, errors, { consoleErrors: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  /** Publishes the drafts from the dialog and waits for the deployment to go live; answers the commit. */
  const publish = async (message?: string) => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByTestId('publish-dialog');
    if (message) await dialog.getByLabel('Commit message').fill(message);
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.getByTestId('live-url').waitFor({ timeout: BUILD_MS }).catch(async (err: Error) => {
      throw new Error(`${err.message}\nThe dialog said: ${await dialog.textContent()}`);
    });
    const commit = (await dashGet(page, `/projects/${pid}/deployments`)).data[0].commit_sha as string;
    return { dialog, commit };
  };
  const closeDialog = (dialog: ReturnType<Page['getByTestId']>) => dialog.getByRole('button', { name: 'Close' }).click();

  t.test('should create a page, save it as it is typed, publish it and serve it', async (t) => {
    await page.getByRole('link', { name: 'Handbook' }).click().catch(() => undefined);
    await page.goto(`${origin}/projects/${pid}/deployments`);
    await page.getByRole('link', { name: 'Editor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Editor' }).waitFor();
    await page.getByTestId('file-tree').getByText('docs/', { exact: true }).click();
    await page.getByRole('button', { name: 'New page' }).click();
    await page.getByLabel('Title').fill('Quick start');
    t.equal(await page.getByLabel('File path').inputValue(), 'docs/quick-start.mdx', 'the path follows the title, in the chosen folder');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(`${origin}/projects/${pid}/editor/docs/quick-start.mdx`);
    await page.locator('.cm-content[aria-label="Text of docs/quick-start.mdx"]').waitFor();
    t.equal(await editorText(page), '---\ntitle: Quick start\n---\n\n', 'a new page starts with its frontmatter');
    await typeAtEnd(page, 'Install the tool, then run it.');
    t.equal(await draftMatches(page, pid, 'docs/quick-start.mdx', /run it\.$/), '---\ntitle: Quick start\n---\n\nInstall the tool, then run it.', 'the draft holds what was typed');
    t.equal(await page.locator('[data-path="docs/quick-start.mdx"]').getAttribute('data-status'), 'added', 'the tree marks the page new');
    const preview = page.frameLocator('iframe.preview-frame');
    // The first preview starts the project's preview builder, which takes a while on a loaded machine.
    await preview.getByText('Install the tool, then run it.').waitFor({ timeout: BUILD_MS });
    t.pass('the preview shows the typed text');
    // A broken component: its problem is shown at its line in the editor, the last good preview stays.
    await page.keyboard.type('\n\n<Callout');
    await page.locator('.cm-lint-marker-error').first().waitFor();
    t.match(await page.locator('.cm-lintRange-error').first().textContent(), /./, 'the problem is marked in the text');
    t.equal(await preview.getByText('Install the tool, then run it.').count(), 1, 'the last good preview stays');
    for (let i = 0; i < '\n\n<Callout'.length; i++) await page.keyboard.press('Backspace');
    await page.locator('.cm-lint-marker-error').first().waitFor({ state: 'detached' });
    await draftMatches(page, pid, 'docs/quick-start.mdx', /run it\.$/);
    t.same(await seriousViolations(page), [], 'no serious accessibility violation');
    await screenshot(page, 'editor');

    const { dialog, commit } = await publish();
    await screenshot(page, 'editor-publish');
    t.match(await dialog.textContent(), /Live at/);
    await closeDialog(dialog);
    t.equal((await deployedAt(commit)).status, 'deployed');
    const served = await tp.site(slug, '/quick-start');
    t.equal(served.status, 200);
    t.match(served.body, /Install the tool, then run it\./, 'the site serves the new page');
    t.same((await dashGet(page, `/projects/${pid}/editor/drafts`)).data, [], 'publishing leaves no draft');
  });

  t.test('should rename a page, update the links to it, and keep its old URL working', async (t) => {
    await openFile(page, origin, pid, 'docs/index.mdx');
    await typeAtEnd(page, '\n\nRead the [quick start](/quick-start).');
    await draftMatches(page, pid, 'docs/index.mdx', /\(\/quick-start\)\.$/);
    await page.getByTestId('file-tree').getByRole('link', { name: /quick-start\.mdx/ }).click();
    await page.locator('.cm-content[aria-label="Text of docs/quick-start.mdx"]').waitFor();
    await page.getByRole('button', { name: 'Rename or move' }).click();
    await page.getByLabel('New path').fill('docs/getting-started.mdx');
    t.ok(await page.getByLabel('Update links in other pages that point at the old path').isChecked(), 'updating links is offered');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.waitForURL(`${origin}/projects/${pid}/editor/docs/getting-started.mdx`);
    await page.getByText(/Moved docs\/quick-start\.mdx to docs\/getting-started\.mdx\./).waitFor();
    const index = await dashGet(page, `/projects/${pid}/editor/file?path=docs/index.mdx`);
    t.match(index.content, /\[quick start\]\(\/getting-started\)/, 'the link follows the page');
    t.equal(await page.locator('[data-path="docs/getting-started.mdx"]').getAttribute('data-status'), 'renamed');

    const { dialog, commit } = await publish();
    await closeDialog(dialog);
    await deployedAt(commit);
    t.match((await tp.site(slug, '/getting-started')).body, /Install the tool, then run it\./);
    const old = await tp.site(slug, '/quick-start');
    t.same([old.status, old.headers.get('location')], [308, '/getting-started'], 'the old URL redirects');
  });

  t.test('should store a dropped image under public/ and insert its reference', async (t) => {
    await openFile(page, origin, pid, 'docs/getting-started.mdx');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n');
    const box = (await page.locator('.cm-line').last().boundingBox())!;
    // A real drag and drop of a file, as the browser delivers it: a DataTransfer holding a PNG.
    const dataTransfer = await page.evaluateHandle((png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'install-screen.png', { type: 'image/png' }));
      return dt;
    }, PNG);
    const at = { clientX: box.x + 5, clientY: box.y + box.height / 2 };
    await page.locator('.cm-content').dispatchEvent('dragenter', { dataTransfer, ...at });
    await page.locator('.cm-content').dispatchEvent('dragover', { dataTransfer, ...at });
    await page.locator('.cm-content').dispatchEvent('drop', { dataTransfer, ...at });
    await page.waitForFunction(() => /!\[[^\]]*\]\([^)]+\.png\)/.test(document.querySelector('[data-testid="code-editor"]')!.shadowRoot!.querySelector('.cm-content')!.textContent ?? ''), undefined, { timeout: 30_000 }).catch(async (err: Error) => {
      throw new Error(`${err.message}\nThe editor said: ${await page.locator('.cm-panels').textContent().catch(() => '')} ${await editorText(page)}`);
    });
    const text = await editorText(page);
    const ref = /!\[([^\]]*)\]\(([^)]+\.png)\)/.exec(text)!;
    t.match(ref[2], /^\/?(public\/)?.*\.png$/, 'the reference points at the stored file');
    const drafts = (await dashGet(page, `/projects/${pid}/editor/drafts`)).data as { path: string; status: string }[];
    const image = drafts.find((d) => d.path.startsWith('public/') && d.path.endsWith('.png'));
    t.ok(image, 'the image is a draft under public/');
    t.equal(image?.status, 'added');
    await draftMatches(page, pid, 'docs/getting-started.mdx', /!\[[^\]]*\]\([^)]+\.png\)/);
    const { dialog, commit } = await publish('Install screenshot');
    await closeDialog(dialog);
    await deployedAt(commit);
    const served = await tp.site(slug, `/${image!.path.replace(/^public\//, '')}`);
    t.equal(served.status, 200, 'the site serves the image');
    t.match((await tp.site(slug, '/getting-started')).body, new RegExp(ref[2].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the page shows it');
  });

  t.test('should keep what was typed when the tab closes before it is saved', async (t) => {
    const context = page.context();
    const tab = await context.newPage();
    tab.on('pageerror', (e) => errors.push(String(e)));
    await openFile(tab, origin, pid, 'docs/guide.mdx');
    await typeAtEnd(tab, '\n\nTyped just before the tab closed.');
    await tab.close();
    const again = await context.newPage();
    again.on('pageerror', (e) => errors.push(String(e)));
    await openFile(again, origin, pid, 'docs/guide.mdx');
    t.match(await editorText(again), /Typed just before the tab closed\.$/, 'the text is there');
    t.match(await draftMatches(again, pid, 'docs/guide.mdx', /Typed just before the tab closed\./), /Typed just before the tab closed\.\n?$/, 'and in the draft');
    await again.close();
  });

  t.test('should merge a push that landed while the draft was open', async (t) => {
    // The draft (guide.mdx, from the test before) changed its end; a push changes its first line.
    await pull();
    await wc.write({ 'docs/guide.mdx': page_('Guide', 'First line of the guide, pushed with git.\n\nSecond paragraph of the guide.') });
    await wc.push();
    await openFile(page, origin, pid, 'docs/guide.mdx');
    const { dialog, commit } = await publish('Guide: a closing line');
    t.match(await dialog.getByTestId('publish-progress').textContent(), /merged with the repository's newer changes to docs\/guide\.mdx/);
    await closeDialog(dialog);
    await deployedAt(commit);
    const served = (await tp.site(slug, '/guide')).body;
    t.match(served, /First line of the guide, pushed with git\./, 'the push is kept');
    t.match(served, /Typed just before the tab closed\./, 'the draft is kept');
  });

  t.test('should show a conflicting push side by side and publish once resolved', async (t) => {
    await openFile(page, origin, pid, 'docs/guide.mdx');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    if ((await editorText(page)).endsWith('\n')) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('The last line, as the editor wrote it.');
    await draftMatches(page, pid, 'docs/guide.mdx', /as the editor wrote it\./);
    await pull();
    const pushed = (await run('git', ['show', 'HEAD:docs/guide.mdx'], { cwd: wc.dir })).stdout.replace('Typed just before the tab closed.', 'The last line, as git wrote it.');
    await wc.write({ 'docs/guide.mdx': pushed });
    await wc.push();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByTestId('publish-dialog');
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    const conflict = dialog.locator('.conflict[data-path="docs/guide.mdx"]');
    await conflict.waitFor();
    t.match(await conflict.getByTestId('theirs').textContent(), /The last line, as git wrote it\./);
    t.match(await conflict.getByTestId('yours').textContent(), /The last line, as the editor wrote it\./);
    t.match(await conflict.getByLabel('Merged text').inputValue(), /<<<<<<<[\s\S]*>>>>>>>/, 'the merged text marks the conflict');
    await screenshot(page, 'editor-conflict');
    await conflict.getByRole('button', { name: 'Use mine' }).click();
    t.notMatch(await conflict.getByLabel('Merged text').inputValue(), /<<<<<<</);
    await conflict.getByRole('button', { name: 'Resolve docs/guide.mdx' }).click();
    await dialog.getByTestId('live-url').waitFor({ timeout: BUILD_MS });
    await closeDialog(dialog);
    const commit = (await dashGet(page, `/projects/${pid}/deployments`)).data[0].commit_sha as string;
    await deployedAt(commit);
    t.match((await tp.site(slug, '/guide')).body, /The last line, as the editor wrote it\./);
  });

  t.test('should let a viewer read the files but not change or publish them', async (t) => {
    const viewerErrors: string[] = [];
    const viewer = await signedInPage(browser, origin, 'reader@example.com', PASSWORD, viewerErrors);
    await viewer.goto(`${origin}/projects/${pid}/editor/docs/index.mdx`);
    await viewer.getByTestId('read-only').waitFor();
    t.equal(await viewer.locator('.cm-content').getAttribute('contenteditable'), 'false');
    t.equal(await viewer.getByRole('button', { name: 'Publish', exact: true }).count(), 0, 'no Publish');
    t.equal(await viewer.getByRole('button', { name: 'New page' }).count(), 0, 'no New page');
    t.match(await editorText(viewer), /Welcome/);
    t.same(viewerErrors, []);
    await viewer.context().close();
    t.same(errors, [], 'no page or console error');
  });
});

/**
 * The editing extensions inside the real editor page against the whole platform on 127.0.0.1:
 * link completion from `GET /links` (the builder's page URLs and heading ids), an image dropped
 * into a page stored through `POST /assets` as a draft under `public/` and referenced where it
 * fell, the platform's refusals (too large, not really an image) shown in the editor, and a
 * `docs.json` key the build rejects underlined at its line with the message of
 * `POST /validate-config`.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';
const page_ = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** The dashboard API from inside the page (its session cookie). */
async function dashGet(page: Page, path: string): Promise<any> {
  return page.evaluate(async (p) => (await fetch(`/dashboard/api${p}`)).json(), path);
}

/** The text of the editor as CodeMirror shows it. */
async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

/** Waits until `label` is the selected completion and accepts it (CodeMirror ignores Enter for 75 ms after the list changes). */
async function choose(page: Page, label: string): Promise<void> {
  // The editor lives in a shadow root (the dashboard's CSP allows only adopted stylesheets there).
  await page.waitForFunction((l) => document.querySelector('.cm-host')?.shadowRoot?.querySelector('.cm-tooltip-autocomplete [aria-selected] .cm-completionLabel')?.textContent === l, label);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

/** Drops a file on the start of the editor's line `line` (1-based), as a drag from the desktop does. */
async function drop(page: Page, line: number, name: string, type: string, bytes: Buffer): Promise<void> {
  await page.locator('.cm-content').evaluate((content, { line, name, type, base64 }) => {
    const rect = content.querySelectorAll('.cm-line')[line - 1].getBoundingClientRect();
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
    content.dispatchEvent(new DragEvent('drop', { dataTransfer: data, clientX: rect.left + 1, clientY: rect.top + rect.height / 2, bubbles: true, cancelable: true }));
  }, { line, name, type, base64: bytes.toString('base64') });
}

t.test('editing extensions on the platform', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(tp.p.cp.m, tp.orgId, 'ext-writer@example.com', 'owner', PASSWORD);
  const slug = `ext-${process.pid}`;
  const pid = (await tp.api('POST', '/projects', { name: 'Handbook', slug })).body.id as string;
  const wc = await tp.workingCopy(slug, {
    'docs.json': JSON.stringify({ name: 'Handbook', navigation: [{ group: 'Start', pages: ['index', 'guides/setup'] }] }, null, 2),
    'index.mdx': page_('Welcome', 'Hello.'),
    'guides/setup.mdx': page_('Setup', '## Requirements\n\nText.\n\n### First run\n\nMore.'),
  });
  await wc.push();
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const page = await signedInPage(browser, origin, 'ext-writer@example.com', PASSWORD, errors, { consoleErrors: true });
  const open = async (file: string) => {
    await page.goto(`${origin}/projects/${pid}/editor/${file}`);
    await page.locator(`.cm-content[aria-label="Text of ${file}"]`).waitFor();
    await page.locator('.cm-content').click();
  };
  /** Replaces the whole text as a paste does (CodeMirror's own paste handling, not the browser's editing). */
  const replaceAll = async (text: string) => {
    await page.keyboard.press('Control+a');
    await page.locator('.cm-content').evaluate((content, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  };

  t.test('should complete internal links with the pages and heading ids the platform lists', async (t) => {
    const links = await dashGet(page, `/projects/${pid}/editor/links`);
    const setup = links.pages.find((p: any) => p.path === 'guides/setup.mdx');
    t.same(setup.headings.map((h: any) => h.id), ['requirements', 'first-run'], 'the builder\'s heading ids');
    await open('index.mdx');
    await replaceAll('See [setup](');
    await page.keyboard.type('/gu');
    await choose(page, setup.url);
    await page.keyboard.type('#');
    await choose(page, 'requirements');
    t.equal(await editorText(page), `See [setup](${setup.url}#requirements`);
    await replaceAll('');
  });

  t.test('should store a dropped image as a draft under public/ and reference it where it fell', async (t) => {
    await open('guides/setup.mdx');
    await replaceAll('Before\n\nAfter');
    await drop(page, 2, 'pixel-shot.png', 'image/png', PNG);
    await page.locator('.cm-line', { hasText: '![' }).waitFor();
    t.equal(await editorText(page), 'Before\n![pixel shot](/pixel-shot.png)\nAfter');
    const stored = await dashGet(page, `/projects/${pid}/editor/file?path=public/pixel-shot.png`);
    t.same([stored.kind, stored.encoding, stored.content], ['asset', 'base64', PNG.toString('base64')], 'the draft holds the file\'s bytes');
    const drafts = await dashGet(page, `/projects/${pid}/editor/drafts`);
    t.ok(drafts.data.some((d: any) => d.path === 'public/pixel-shot.png' && d.status === 'added'), 'listed among the drafts');

    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    await drop(page, 1, 'huge.png', 'image/png', big);
    await page.locator('.cm-upload-message').waitFor();
    t.equal(await page.locator('.cm-upload-message span').innerText(), `huge.png was not stored: File: Unexpected size ${big.length} bytes; expected at most 2097152 (2 MB)`);
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]);
    await drop(page, 1, 'run.png', 'image/png', elf);
    await page.locator('.cm-upload-message span', { hasText: /^run\.png/ }).waitFor();
    t.equal(await page.locator('.cm-upload-message span').innerText(), 'run.png was not stored: File: Unexpected file type; expected SVG, PNG, ICO, WebP or JPEG');
    t.equal(await editorText(page), 'Before\n![pixel shot](/pixel-shot.png)\nAfter', 'nothing inserted for refused files');
  });

  t.test('should show the build\'s problem with docs.json at its line', async (t) => {
    await open('docs.json');
    const config = JSON.stringify({ name: 'Handbook', appearance: { defualt: 'dark' }, navigation: [{ group: 'Start', pages: ['index'] }] }, null, 2);
    await replaceAll(config);
    await page.locator('.cm-lintRange-error').first().waitFor({ timeout: 30_000 });
    const underlined = await page.locator('.cm-lintRange-error').first().innerText();
    t.match(underlined, /^"(?:defualt|dark)"$/, `the key or its value is underlined: ${underlined}`);
    await page.locator('.cm-lintRange-error').first().hover();
    const message = await page.locator('.cm-tooltip-lint .cm-diagnosticText').first().innerText();
    t.match(message, /defualt/, `the build's message: ${message}`);
    t.match(message, /Unexpected key/);
    const line = config.split('\n').findIndex((l) => l.includes('defualt')) + 1;
    t.equal(await page.locator('.cm-gutterElement .cm-lint-marker-error').count() > 0, true, 'a marker in the gutter');
    const markerLine = await page.locator('.cm-editor').evaluate((editor) => {
      const marker = editor.querySelector('.cm-lint-marker-error')!.getBoundingClientRect();
      const lines = [...editor.querySelectorAll('.cm-content .cm-line')];
      return lines.findIndex((l) => { const r = l.getBoundingClientRect(); return r.top <= marker.top + 1 && r.bottom >= marker.bottom - 1; }) + 1;
    });
    t.equal(markerLine, line, `at line ${line}`);
  });

  t.test('should have no page errors', async (t) => {
    t.same(errors, []);
  });
});

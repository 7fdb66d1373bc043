/**
 * Nothing typed in the web editor is lost when the platform restarts mid-edit: `npm start` runs
 * as its own process on a data directory; a page is typed and saved, the process is stopped, more
 * is typed while it is down (kept by the collaboration client, or, when the page saves drafts
 * itself, in the browser with the editor saying it is offline), and a new process on the same
 * data directory and port receives every word once it is up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../helpers/dashboard-browser.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PASSWORD = 'a long enough passphrase';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `npm start` on `dataDir`, resolved once it has printed everything it prints at start. */
function start(env: Record<string, string>): Promise<{ child: ChildProcess; out: () => string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/src/start.ts')], {
    cwd: ROOT, env: { ...process.env, BUILDER_WORKERS: '0', LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); if (/Dashboard:[^\n]*\n/.test(out) && (!/First start|no owner yet/.test(out) || /API keys are created/.test(out))) resolve({ child, out: () => out, stop }); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('close', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

/** Waits until the draft of `file` matches `re`; answers its text. */
async function draftMatches(page: Page, projectId: string, file: string, re: RegExp, ms = 120_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const f = await page.evaluate(async (u) => { try { return await (await fetch(u)).json(); } catch { return {}; } }, `/dashboard/api/projects/${projectId}/editor/file?path=${encodeURIComponent(file)}`);
    if (typeof f.content === 'string' && re.test(f.content)) return f.content;
    if (Date.now() > deadline) throw new Error(`the draft of ${file} never matched ${re}: ${JSON.stringify(f.content)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

t.test('web editor across a restart of the platform', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-editor-restart-'));
  const env = { DATA_DIR: dataDir, API_PORT: String(await freePort()), SITE_PORT: String(await freePort()) };
  let platform = await start(env);
  t.teardown(async () => {
    await platform.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const claim = /(http:\/\/127\.0\.0\.1:\d+\/claim#token=\S+)/.exec(platform.out())![1];
  const origin = new URL(claim).origin;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.setDefaultTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));

  await page.goto(claim);
  await page.getByLabel('Email').fill('owner@example.com');
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  const project = await page.evaluate(async () => {
    const session = await (await fetch('/dashboard/api/session')).json();
    const res = await fetch('/dashboard/api/projects', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token }, body: JSON.stringify({ name: 'Restart', slug: `restart-${Date.now()}` }) });
    return res.json();
  });
  t.ok(project.id, 'a project');

  await page.goto(`${origin}/projects/${project.id}/editor`);
  await page.getByRole('button', { name: 'New page' }).click();
  await page.getByLabel('Title').fill('Notes');
  await page.getByRole('button', { name: 'Create page' }).click();
  await page.locator('.cm-content[aria-label="Text of notes.mdx"]').waitFor();
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('Saved before the restart.');
  await draftMatches(page, project.id, 'notes.mdx', /Saved before the restart\.$/);
  // Shared live through the collaboration server, or saved by the page itself when there is none.
  const live = (await page.getByTestId('save-state').textContent()) === 'Live';
  t.comment(live ? 'the page is shared live' : 'the page saves its draft itself');

  t.test('should keep typing while the platform is down and save everything once it is back', async (t) => {
    await page.keyboard.type(' Typed as it stopped.');
    await platform.stop();
    await page.keyboard.type(' Typed while it was down.');
    if (!live) {
      await page.getByTestId('save-state').getByText(/^Offline/).waitFor();
      t.match(await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith(':notes.mdx'))?.[1] ?? ''), /Typed while it was down\./, 'kept in the browser meanwhile');
    }

    platform = await start(env);
    t.equal(await draftMatches(page, project.id, 'notes.mdx', /Typed while it was down\.$/), '---\ntitle: Notes\n---\n\nSaved before the restart. Typed as it stopped. Typed while it was down.');
    await page.reload();
    await page.locator('.cm-content[aria-label="Text of notes.mdx"]').waitFor();
    t.match(await editorText(page), /Typed while it was down\.$/);
    t.same(errors, []);
  });
});

/**
 * Browser helpers for the dashboard app tests: Chromium (the site template's launcher), axe-core
 * checks, the 390 px overflow check, page screenshots for the app's README, and members made
 * straight in the database to sign in as.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Models } from '../../src/db/models/index.ts';
import { hashPassword } from '../../src/dashboard/passwords.ts';

export { launchBrowser } from '../../../site-template/test/helpers/browser.ts';

/** axe-core's browser build: evaluated through DevTools, which the dashboard's CSP does not block (a script tag would be). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core on the page: its serious and critical violations as `rule: targets`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Elements wider than the viewport (what makes a phone scroll sideways); tables scroll inside their wrapper. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Two frames: resize observers (the chart follows its box) run and their layout settles.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest('.table-wrap, pre, code.one-line') && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });
}

const DOCS = fileURLToPath(new URL('../../dashboard-app/docs/', import.meta.url));

/** Saves a screenshot into the app's docs folder when UPDATE_SCREENSHOTS=1 (kept out of ordinary runs). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: `${DOCS}${name}.png`, fullPage: true });
}

/** A user with `role` in the organization, made in the database; returns the user's id. */
export async function addMember(m: Models, orgId: string, email: string, role: string, password: string): Promise<string> {
  const user = await m.User.create({ email, name: email.split('@')[0], password_hash: await hashPassword(password), created_at: new Date() });
  await m.Membership.create({ org_id: orgId, user_id: user._id, role, created_at: new Date() });
  return user._id;
}

/**
 * A new browser context signed in as `email` at `origin`, on the Projects page: page errors go
 * to `errors`, confirmation dialogs are accepted, and waits are generous (the dashboard is built
 * on first need, which takes a while on a loaded machine). `consoleErrors`: console errors go to
 * `errors` too (but a failed resource load, which the page's own alerts report).
 */
export async function signedInPage(browser: Browser, origin: string, email: string, password: string, errors: string[], opts: { consoleErrors?: boolean } = {}): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(90_000);
  if (opts.consoleErrors) page.on('console', (msg) => { if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.accept());
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  return page;
}

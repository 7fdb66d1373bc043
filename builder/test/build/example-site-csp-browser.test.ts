import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Page } from 'playwright-core';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const EXAMPLE = fileURLToPath(new URL('../../examples/acme-docs/', import.meta.url));

/** Records every CSP violation the pages of `page` report (each document, from before its first script runs). */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (m) => { if (/Content.Security.Policy/i.test(m.text())) seen.push(m.text()); });
  await page.exposeFunction('reportViolation', (line: string) => { seen.push(line); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation(line: string): void }).reportViolation(`${e.effectiveDirective} ${e.blockedURI} on ${location.pathname}`);
    });
  });
  return seen;
}

t.test('the example site under its Content-Security-Policy', async (t) => {
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir: EXAMPLE }, store: createLocalDirStore(out), siteUrl: 'https://docs.acme.example', year: 2026 });
  t.equal(result.pagesFailed, 0);
  const { server, browser } = await browseStatic(t, out);

  t.test('should write the policy the site server sends with every page', async (t) => {
    t.same(JSON.parse(fs.readFileSync(path.join(out, '_headers.json'), 'utf8')), {
      'Content-Security-Policy': "img-src 'self' data: blob: https://docs.acme.example; font-src 'self' data: https://docs.acme.example; "
        + "media-src 'self' data: blob: https://docs.acme.example; style-src 'self' 'unsafe-inline' https://docs.acme.example; "
        + "frame-src 'self' https://docs.acme.example; object-src 'none'; base-uri 'self'",
    });
  });

  t.test('should show every page, search, dark mode, the assistant and the API playground without a violation', async (t) => {
    const page = await browser.newPage({ colorScheme: 'light' });
    const violations = await watchViolations(page);
    const res = await page.goto(`${server.origin}/`);
    t.match(res?.headers()['content-security-policy'], /^img-src 'self' data: blob: https:\/\/docs\.acme\.example;/, 'served with the policy');
    for (const p of ['/quickstart', '/guides/code-blocks', '/guides/snippets', '/reference/api', '/changelog', '/v1/quickstart']) {
      await page.goto(`${server.origin}${p}`);
      t.equal(await page.locator('main h1').count() > 0, true, `${p} renders`);
    }

    await page.goto(`${server.origin}/quickstart`);
    await page.click('.search-open');
    await page.fill('.search-input', 'launch');
    await page.waitForSelector('.search-result');
    t.ok(await page.locator('.search-result').count() > 0, 'search (Pagefind, WebAssembly) finds pages');

    await page.goto(`${server.origin}/guides/code-blocks`);
    await page.click('.header-controls [data-control=appearance]');
    t.equal(await page.getAttribute('html', 'data-mode'), 'dark', 'dark mode');

    await page.click('.header-controls [data-control=assistant]');
    await page.waitForSelector('.assistant-dialog[open]');
    await page.fill('.assistant-input', 'How do I launch?');
    await page.click('.assistant-send');
    await page.waitForFunction(() => document.querySelector('.assistant-body')?.textContent !== 'Thinking…');
    t.pass('the assistant asked its endpoint (this static server has none)');

    await page.goto(`${server.origin}/api-reference/rockets/list-rockets`);
    await page.waitForSelector('[data-api-try][data-ready]');
    t.equal(await page.locator('[data-api-try]').isVisible(), true, 'the API playground is ready');

    t.same(violations, [], 'no violation reported');
    await page.close();
  });
});

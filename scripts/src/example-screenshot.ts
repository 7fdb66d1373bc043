/**
 * The screenshot of the authoring quick start (docs/authoring.md): the bundled example repository
 * (`builder/examples/acme-docs`) built as a push would build it, its home page in Chromium, light
 * mode, 1366×800, as compressed JPEG in `builder/docs/example-site.jpg`. Uses Debian's Chromium,
 * like the template's browser tests.
 *
 *   npx tsx scripts/src/example-screenshot.ts
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '@folio/builder';
import { createLocalDirStore } from '@folio/builder/store/local-dir-store.ts';
import { closePagefind } from '@folio/builder/outputs/pagefind-shard.ts';
import { launchBrowser } from '../../site-template/test/helpers/browser.ts';
import { serveStatic } from '../../site-template/test/helpers/static-server.ts';

const EXAMPLE = fileURLToPath(new URL('../../builder/examples/acme-docs/', import.meta.url));
const OUT = fileURLToPath(new URL('../../builder/docs/example-site.jpg', import.meta.url));

const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-example-'));
try {
  const result = await build({ source: { kind: 'dir', dir: EXAMPLE }, store: createLocalDirStore(dir), siteUrl: 'http://127.0.0.1', year: 2026 });
  await closePagefind();
  console.log(`built ${result.pagesTotal} pages (${result.pagesFailed} failed)`);
  const server = await serveStatic(dir);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 }, colorScheme: 'light' });
    await page.goto(`${server.origin}/`);
    await page.screenshot({ path: OUT, type: 'jpeg', quality: 72 });
    if (process.env.SCREENSHOT_PNG) await page.screenshot({ path: process.env.SCREENSHOT_PNG, type: 'png' });
    console.log(`${path.relative(process.cwd(), OUT)}: ${((await stat(OUT)).size / 1024).toFixed(0)} KB`);
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

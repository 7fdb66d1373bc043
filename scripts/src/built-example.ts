/**
 * The bundled example repository (`builder/examples/acme-docs`) built as a push would build it
 * and served on 127.0.0.1, for the scripts that take screenshots of it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build, createLocalDirStore } from '@folio/builder';
import { launchBrowser } from '../../site-template/test/helpers/browser.ts';
import { serveStatic } from '../../site-template/test/helpers/static-server.ts';

const EXAMPLE = fileURLToPath(new URL('../../builder/examples/acme-docs/', import.meta.url));

/**
 * Builds the example site into a temp dir, serves it and launches Debian's Chromium, runs `use`
 * with the site's origin and the browser, then closes both and removes the dir. The build's
 * Pagefind helper process stays until the command exits: run this inside `runCommand`, which
 * exits when it is done.
 */
export async function withBuiltExample(use: (origin: string, browser: Browser) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-example-'));
  try {
    const result = await build({ source: { kind: 'dir', dir: EXAMPLE }, store: createLocalDirStore(dir), siteUrl: 'http://127.0.0.1', year: 2026 });
    console.log(`built ${result.pagesTotal} pages (${result.pagesFailed} failed)`);
    const server = await serveStatic(dir);
    const browser = await launchBrowser();
    try {
      await use(server.origin, browser);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The theme screenshots of `site-template/docs/configuration.md`: the sample page in every theme,
 * light mode, 1366×800, as compressed JPEG in `site-template/docs/themes/<theme>.jpg`. Uses Debian's
 * Chromium, like the template's browser tests.
 *
 *   npx tsx scripts/src/theme-screenshots.ts
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { THEMES } from '@folio/site-template';
import { sampleSite } from '@folio/site-template/node/sample-site.tsx';
import { launchBrowser } from '../../site-template/test/helpers/browser.ts';
import { createExampleSite } from '../../site-template/test/helpers/example-site.ts';
import { serveStatic } from '../../site-template/test/helpers/static-server.ts';

const OUT = fileURLToPath(new URL('../../site-template/docs/themes/', import.meta.url));

const site = await createExampleSite();
for (const theme of THEMES) await site.addPage(`/${theme}`, sampleSite(theme, { appearance: { default: 'light', strict: false } }));
const server = await serveStatic(site.dir);
const browser = await launchBrowser();
try {
  await mkdir(OUT, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  for (const theme of THEMES) {
    await page.goto(`${server.origin}/${theme}`);
    const path = `${OUT}${theme}.jpg`;
    await page.screenshot({ path, type: 'jpeg', quality: 72 });
    console.log(`${theme}: ${((await stat(path)).size / 1024).toFixed(0)} KB`);
  }
} finally {
  await browser.close();
  await server.close();
  await rm(site.dir, { recursive: true, force: true });
}

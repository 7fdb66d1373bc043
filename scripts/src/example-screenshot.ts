/**
 * The screenshot of the authoring quick start (docs/authoring.md): the bundled example repository
 * (`builder/examples/acme-docs`) built as a push would build it, its home page in Chromium, light
 * mode, 1366×800, as compressed JPEG in `builder/docs/example-site.jpg`. Uses Debian's Chromium,
 * like the template's browser tests.
 *
 *   npx tsx scripts/src/example-screenshot.ts
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuiltExample } from './built-example.ts';
import { runCommand } from './cli-args.ts';

const OUT = fileURLToPath(new URL('../../builder/docs/example-site.jpg', import.meta.url));

await runCommand(() => withBuiltExample(async (origin, browser) => {
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 }, colorScheme: 'light' });
  await page.goto(`${origin}/`);
  await page.screenshot({ path: OUT, type: 'jpeg', quality: 72 });
  if (process.env.SCREENSHOT_PNG) await page.screenshot({ path: process.env.SCREENSHOT_PNG, type: 'png' });
  console.log(`${path.relative(process.cwd(), OUT)}: ${((await stat(OUT)).size / 1024).toFixed(0)} KB`);
}));

/**
 * The header screenshots of `site-template/docs/configuration.md`: the bundled example repository
 * (`builder/examples/acme-docs`, its own theme) built as a push would build it, its quickstart
 * page in Chromium, light mode, the header at each width as compressed JPEG in
 * `site-template/docs/screenshots/header-<width>.jpg`, and the ☰ menu open at 390 px
 * (`header-390-menu.jpg`). Uses Debian's Chromium, like the template's browser tests.
 *
 *   npx tsx scripts/src/header-screenshots.ts [--widths 320,390,768,900,1024,1280,1600]
 */
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { withBuiltExample } from './built-example.ts';
import { helpRequested, parseArgs, runCommand } from './cli-args.ts';

const OUT = fileURLToPath(new URL('../../site-template/docs/screenshots/', import.meta.url));

/** Phones, a small and a large tablet, the width the menu gives way at, laptops and a wide screen. */
const WIDTHS = [320, 390, 768, 900, 1024, 1280, 1600];
/** Where the menu is shown open: a common phone. */
const MENU_WIDTH = 390;
/** Height of the menu screenshot: the header and the top of the open menu (its tabs, switchers and links). */
const MENU_HEIGHT = 640;
/** The page shown: it has the site's tabs, version switcher and navbar links, like every page. */
const PAGE = '/quickstart';

const USAGE = `Usage: npx tsx scripts/src/header-screenshots.ts [--widths 320,390,…]

Builds the example site and writes its header at each width (default ${WIDTHS.join(', ')}) to
site-template/docs/screenshots/header-<width>.jpg, and the menu open at ${MENU_WIDTH} px to header-${MENU_WIDTH}-menu.jpg.`;

/** The widths asked for: a comma-separated list of whole pixels from 280 to 3840. */
function widthsOf(flag: string | true | undefined): number[] {
  if (flag === undefined) return WIDTHS;
  const widths = String(flag).split(',').map((w) => Number(w.trim()));
  const bad = widths.find((w) => !Number.isInteger(w) || w < 280 || w > 3840);
  if (flag === true || bad !== undefined) throw new Error(`Unexpected --widths ${flag === true ? '(no value)' : JSON.stringify(flag)}; expected whole pixels from 280 to 3840, comma-separated`);
  return widths;
}

async function main(): Promise<void> {
  const widths = widthsOf(parseArgs(process.argv.slice(2)).flags.widths);
  await withBuiltExample(async (origin, browser) => {
    await mkdir(OUT, { recursive: true });
    const page = await browser.newPage({ viewport: { width: widths[0], height: 800 }, colorScheme: 'light', reducedMotion: 'reduce' });
    const save = async (file: string, clip: { width: number; height: number }) => {
      await page.screenshot({ path: OUT + file, type: 'jpeg', quality: 72, clip: { x: 0, y: 0, ...clip } });
      console.log(`${file}: ${((await stat(OUT + file)).size / 1024).toFixed(0)} KB`);
    };
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      // A fresh load at each width, as a reader arriving on that device sees it.
      await page.goto(`${origin}${PAGE}`);
      const bottom = await page.evaluate(() => document.querySelector('.site-header')!.getBoundingClientRect().bottom);
      // The header and a strip of the page under it, so the header's edge shows.
      await save(`header-${width}.jpg`, { width, height: Math.ceil(bottom) + 24 });
      if (width === MENU_WIDTH) {
        await page.setViewportSize({ width, height: MENU_HEIGHT });
        await page.getByRole('button', { name: 'Menu' }).click();
        await save(`header-${width}-menu.jpg`, { width, height: MENU_HEIGHT });
      }
    }
  });
}

if (helpRequested(process.argv.slice(2))) console.log(USAGE);
else await runCommand(main);

import t from 'tap';
import { mkdir } from 'node:fs/promises';
import { THEMES } from '../../src/node/theme-traits.ts';
import { sampleSite } from '../../src/node/sample-site.tsx';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic } from '../helpers/static-server.ts';

const SHOTS = new URL('../../../test-artifacts/screenshots/', import.meta.url).pathname;

t.test('themes', async (t) => {
  const site = await createExampleSite();
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) {
      await site.addPage(`/${theme}-${mode}`, sampleSite(theme, { appearance: { default: mode, strict: false } }));
    }
  }
  const server = await serveStatic(site.dir);
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  await mkdir(SHOTS, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });

  const looks: Record<string, { font: string; radius: string; header: string }> = {};
  const backgrounds: Record<string, string> = {};
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) {
      await page.goto(`${server.origin}/${theme}-${mode}`);
      const style = await page.evaluate(() => {
        const body = getComputedStyle(document.body);
        return {
          mode: document.documentElement.dataset.mode,
          font: body.fontFamily.split(',')[0].replace(/["']/g, ''),
          radius: getComputedStyle(document.querySelector('.code-block')!).borderTopLeftRadius,
          header: getComputedStyle(document.querySelector('.site-header')!).height,
          background: body.backgroundColor,
        };
      });
      t.equal(style.mode, mode, `${theme} renders in ${mode} mode`);
      backgrounds[`${theme}-${mode}`] = style.background;
      if (mode === 'light') looks[theme] = { font: style.font, radius: style.radius, header: style.header };
      await page.screenshot({ path: `${SHOTS}${theme}-${mode}.png`, fullPage: false });
      // One whole page per mode shows every component in context.
      if (theme === 'larch' || theme === 'obsidian') await page.screenshot({ path: `${SHOTS}${theme}-${mode}-full.png`, fullPage: true });
    }
  }

  t.test('should give each theme its own typography, corners and header', async (t) => {
    t.same(looks, {
      cedar: { font: 'Charter', radius: '2px', header: '56px' },
      obsidian: { font: 'Geist', radius: '12px', header: '60px' },
      birch: { font: 'Nunito', radius: '16px', header: '76px' },
      oak: { font: 'Source Sans 3', radius: '4px', header: '68px' },
      cypress: { font: 'IBM Plex Sans', radius: '6px', header: '48px' },
      ember: { font: 'Inter Tight', radius: '10px', header: '64px' },
      larch: { font: 'Inter', radius: '8px', header: '64px' },
      sage: { font: 'Söhne', radius: '0px', header: '56px' },
      slate: { font: 'Segoe UI', radius: '6px', header: '58px' },
      terminal: { font: 'JetBrains Mono', radius: '0px', header: '44px' },
    });
  });

  t.test('should paint a different page background in dark mode for every theme', async (t) => {
    for (const theme of THEMES) t.not(backgrounds[`${theme}-dark`], backgrounds[`${theme}-light`], theme);
  });
});

import t from 'tap';
import { mkdir } from 'node:fs/promises';
import { THEMES, THEME_TRAITS } from '../../src/node/theme-traits.ts';
import { sampleSite } from '../../src/node/sample-site.tsx';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic } from '../helpers/static-server.ts';

const SHOTS = new URL('../../../test-artifacts/screenshots/', import.meta.url).pathname;

/**
 * WCAG contrast ratios of text against the page background, computed in the page. A string, so
 * the test runner's transpiler cannot add helpers the browser lacks. Computed colours arrive as
 * rgb()/rgba() or, from color-mix(), as color(srgb …) with 0-1 channels.
 */
const CONTRASTS = `(() => {
  const rgb = (c) => { const n = c.match(/[\\d.]+/g).map(Number); return c.startsWith('color(') ? n.slice(0, 3).map((v) => v * 255) : n.slice(0, 3); };
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = lum(getComputedStyle(document.body).backgroundColor);
  const ratio = (sel) => { const fg = lum(getComputedStyle(document.querySelector(sel)).color); return Math.round(((Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)) * 10) / 10; };
  const own = (sel) => { const s = getComputedStyle(document.querySelector(sel)); const a = lum(s.color), b = lum(s.backgroundColor); return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 10) / 10; };
  return { text: ratio('.prose p'), muted: ratio('.page-description'), link: ratio('.pager-title'), nav: ratio('.sidebar a:not([aria-current])'), cta: own('.cta') };
})()`;

/**
 * The layout traits a reader sees, read back from computed styles (not from the data
 * attributes), so a trait that stops rendering fails the test.
 */
const LAYOUT = `(() => {
  const css = (sel, pseudo) => getComputedStyle(document.querySelector(sel), pseudo);
  const header = document.querySelector('.site-header');
  const hs = getComputedStyle(header);
  const transparent = (c) => c === 'rgba(0, 0, 0, 0)' || c === 'transparent';
  const headerStyle = hs.position === 'static' && transparent(hs.backgroundColor) ? 'transparent'
    : header.getBoundingClientRect().top > 0 && parseFloat(hs.borderTopLeftRadius) > 0 ? 'floating'
    : getComputedStyle(document.querySelector('.brand')).color === 'rgb(255, 255, 255)' ? 'bar' : 'plain';
  const group = css('.sidebar-nav > ul > .nav-group');
  const sidebar = css('.sidebar');
  const sidebarStyle = parseFloat(group.borderTopWidth) > 0 ? 'cards'
    : !transparent(sidebar.backgroundColor) ? 'panel'
    : parseFloat(css('.sidebar-nav ul ul').borderLeftWidth) > 0 ? 'lines' : 'plain';
  const widths = { 640: 'narrow', 736: 'reading', 864: 'wide' };
  const code = css('.code-block');
  const codeStyle = css('.code-title').backgroundImage.includes('radial-gradient') && code.boxShadow !== 'none' ? 'window'
    : code.borderTopWidth === '0px' && code.borderLeftWidth === '3px' ? 'rule'
    : code.borderTopColor === 'rgba(0, 0, 0, 0)' ? 'flat' : 'bordered';
  return { header: headerStyle, sidebar: sidebarStyle, width: widths[parseFloat(css('.content').maxWidth)] ?? css('.content').maxWidth, code: codeStyle };
})()`;

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
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });

  const looks: Record<string, { font: string; radius: string; header: string }> = {};
  const layouts: Record<string, unknown> = {};
  const backgrounds: Record<string, string> = {};
  const contrasts: Record<string, Record<string, number>> = {};
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) {
      await page.goto(`${server.origin}/${theme}-${mode}`);
      const style = await page.evaluate(() => {
        const body = getComputedStyle(document.body);
        return {
          mode: document.documentElement.dataset.mode,
          font: body.fontFamily.split(',')[0].replace(/["']/g, ''),
          radius: getComputedStyle(document.querySelector('.copy-page')!).borderTopLeftRadius,
          header: getComputedStyle(document.querySelector('.site-header')!).height,
          background: body.backgroundColor,
        };
      });
      t.equal(style.mode, mode, `${theme} renders in ${mode} mode`);
      contrasts[`${theme}-${mode}`] = await page.evaluate<Record<string, number>>(CONTRASTS);
      backgrounds[`${theme}-${mode}`] = style.background;
      if (mode === 'light') looks[theme] = { font: style.font, radius: style.radius, header: style.header };
      layouts[`${theme}-${mode}`] = await page.evaluate(LAYOUT);
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

  t.test('should render each theme\'s layout traits, in light and dark, and no two themes alike', async (t) => {
    for (const theme of THEMES) {
      const { header, sidebar, width, code } = THEME_TRAITS[theme];
      for (const mode of ['light', 'dark']) t.same(layouts[`${theme}-${mode}`], { header, sidebar, width, code }, `${theme} ${mode}`);
    }
    const signatures = THEMES.map((theme) => JSON.stringify([layouts[`${theme}-light`], looks[theme].font]));
    t.equal(new Set(signatures).size, THEMES.length, 'ten different layouts');
  });

  t.test('should meet WCAG AA contrast (4.5:1) for text, muted text, links, navigation and the solid button with default colours', async (t) => {
    for (const [name, ratios] of Object.entries(contrasts)) {
      for (const [kind, ratio] of Object.entries(ratios)) t.ok(ratio >= 4.5, `${name} ${kind} ${ratio}:1`);
    }
  });

  t.test('should paint a different page background in dark mode for every theme', async (t) => {
    for (const theme of THEMES) t.not(backgrounds[`${theme}-dark`], backgrounds[`${theme}-light`], theme);
  });
});

import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { heading, sampleBodyHtml, samplePageInput, sampleSite } from '../../src/node/sample-site.tsx';
import { THEMES } from '../../src/node/theme-traits.ts';
import type { PageShellInput } from '../../src/shared/types.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

/** WCAG contrast of two computed colours (rgb()/rgba(), or color(srgb …) from color-mix()). A string so the transpiler adds no helpers. */
const CONTRAST = `(a, b) => {
  const rgb = (c) => { const n = c.match(/[\\d.]+/g).map(Number); return c.startsWith('color(') ? n.slice(0, 3).map((v) => v * 255) : n.slice(0, 3); };
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const x = lum(a), y = lum(b);
  return Math.round(((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)) * 10) / 10;
}`;

const svg = (fill: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><rect width="80" height="20" fill="${fill}"/></svg>`)}`;
const TEAL = '#0d9488';
const pagePair = '<img class="light-only" src="/pad.svg" alt="The launch pad"><img class="dark-only" src="/pad-dark.svg" alt="The launch pad">';

t.test('page chrome', async (t) => {
  const site = await createExampleSite();
  const body = (html: string): Partial<PageShellInput> => ({ page: { ...samplePageInput().page, bodyHtml: html } });
  // A body starting with `# SDK guide` under the title "SDK guide", and one whose H1 differs.
  await site.addPage('/same-title', sampleSite(), body(heading(1, 'sdk-guide', 'SDK guide') + sampleBodyHtml()));
  await site.addPage('/other-title', sampleSite(), body(heading(1, 'welcome', 'Welcome aboard') + sampleBodyHtml()));
  // A crowded header like the example site's: a longer name, the assistant and a language switcher.
  const crowded = { name: 'Acme Rockets Docs', assistantTrigger: 'button' as const };
  const switchers = { language: { current: 'English', options: [{ label: 'English', href: '/' }, { label: 'Deutsch', href: '/de/' }] } };
  for (const theme of THEMES) await site.addPage(`/assistant-${theme}`, sampleSite(theme, crowded), { switchers });
  await site.addPage('/images', sampleSite(), body(`<p>Above.</p>${pagePair}`));
  await site.addFile('pad.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#eee"/></svg>');
  await site.addFile('pad-dark.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#111"/></svg>');
  for (const theme of ['cedar', 'slate'] as const) {
    // A teal brand with a teal logo for light backgrounds and a white one for dark.
    await site.addPage(`/${theme}-teal`, sampleSite(theme, { appearance: { default: 'light', strict: false }, colors: { primary: TEAL, logo: { light: svg(TEAL), dark: svg('#ffffff'), href: '/' } } }));
    await site.addPage(`/${theme}-teal-name`, sampleSite(theme, { appearance: { default: 'light', strict: false }, colors: { primary: TEAL } }));
  }
  // Sidebar icons as symbols of the sidebar's sprite: a stroked (Lucide) and a filled (Font Awesome) one.
  await site.addPage('/nav-icons', sampleSite(), { nav: [
    { kind: 'group', title: 'Start', icon: 'rocket', items: [{ kind: 'page', title: 'Repository', path: '/nav-icons', icon: 'github' }, { kind: 'page', title: 'Launch', path: '/launch', icon: 'rocket' }] },
  ] });
  const server: StaticServer = await serveStatic(site.dir);
  const browser: Browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  // Reduced motion turns transitions off, so styles read right after a hover are final.
  const newPage = async (opts: Parameters<Browser['newContext']>[0] = {}): Promise<Page> =>
    (await browser.newContext({ viewport: { width: 1366, height: 800 }, colorScheme: 'light', reducedMotion: 'reduce', ...opts })).newPage();

  t.test('should show a heading anchor only on hover, spaced from the text and not underlined', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/other-title`);
    const anchor = async (sel: string) => page.evaluate((s) => {
      const h = document.querySelector(s)!;
      const a = h.querySelector('.heading-anchor')!;
      const range = document.createRange();
      range.selectNodeContents(h.firstChild!);
      return { opacity: getComputedStyle(a).opacity, decoration: getComputedStyle(a).textDecorationLine, gap: Math.round(a.getBoundingClientRect().left - range.getBoundingClientRect().right) };
    }, sel);
    for (const sel of ['.prose h1#welcome', '.prose h2#install', '.prose h3#long-scripts']) {
      const before = await anchor(sel);
      t.equal(before.opacity, '0', `${sel}: hidden until hovered`);
      t.equal(before.decoration, 'none', `${sel}: not underlined`);
      t.ok(before.gap >= 4, `${sel}: ${before.gap}px from the text`);
      await page.hover(sel);
      t.equal((await anchor(sel)).opacity, '1', `${sel}: shown on hover`);
    }
    await page.context().close();
  });

  t.test('should paint sidebar icons drawn from the sidebar\'s symbols', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/nav-icons`);
    const icons = page.locator('.sidebar-nav svg.nav-icon');
    t.equal(await icons.count(), 3, 'the group\'s and both pages\' icons');
    t.equal(await page.locator('.sidebar-nav symbol').count(), 2, 'one symbol per icon name');
    for (let i = 0; i < 3; i++) {
      const box = await icons.nth(i).boundingBox();
      t.ok(box && box.width > 8 && box.height > 8, `icon ${i} has a size`);
      // Painted: the icon's own pixels differ from a blank square of the sidebar's background.
      const shot = await icons.nth(i).screenshot();
      const { data } = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        return { data: Array.from(g.getImageData(0, 0, c.width, c.height).data) };
      }, shot.toString('base64'));
      const first = data.slice(0, 3).join();
      let differing = 0;
      for (let p = 0; p < data.length; p += 4) if (data.slice(p, p + 3).join() !== first) differing++;
      t.ok(differing > 10, `icon ${i} paints pixels (${differing})`);
    }
  });

  t.test('should show the title once when the body starts with the same H1, and keep a different one', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/same-title`);
    t.same(await page.locator('h1').allTextContents(), ['SDK guide']);
    t.equal(await page.locator('.prose h2#install').count(), 1, 'the rest of the body is kept');
    await page.goto(`${server.origin}/other-title`);
    t.same(await page.locator('h1').allTextContents(), ['SDK guide', 'Welcome aboard#']);
    await page.context().close();
  });

  t.test('should keep the header on one row at 390 px and offer the navbar links and CTA in the menu', async (t) => {
    const page = await newPage({ viewport: { width: 390, height: 800 } });
    for (const theme of THEMES) {
      await page.goto(`${server.origin}/assistant-${theme}`);
      const header = await page.evaluate(() => {
        const inner = document.querySelector('.header-inner')!;
        const button = document.querySelector('.assistant-open')!;
        return { overflow: inner.scrollWidth - inner.clientWidth, lines: document.querySelector('.assistant-label')!.getClientRects().length, fits: button.getBoundingClientRect().height < inner.getBoundingClientRect().height, searchUnsquashed: document.querySelector('.search-open')!.getBoundingClientRect().width >= 28 };
      });
      t.same(header, { overflow: 0, lines: 1, fits: true, searchUnsquashed: true }, `${theme}: one row, nothing sticking out, "Ask AI" on one line`);
      t.equal(await page.locator('.site-header .cta').isVisible(), false, `${theme}: the CTA leaves the header`);
    }
    await page.goto(`${server.origin}/assistant-larch`);
    await page.click('.menu-toggle');
    const menu = page.locator('#sidebar .menu-links');
    t.same(await menu.locator('nav a').allTextContents(), ['Blog', 'Status']);
    for (const link of await menu.locator('a').all()) t.ok(await link.isVisible(), `${await link.textContent()} visible in the menu`);
    t.equal(await menu.locator('.cta').getAttribute('href'), 'https://app.acme.example');
    // Keyboard: from the current page link (focused on open) Shift+Tab walks back to the CTA.
    let reached = false;
    for (let i = 0; i < 5 && !reached; i++) {
      await page.keyboard.press('Shift+Tab');
      reached = await page.evaluate(() => document.activeElement?.matches('.menu-links .cta') ?? false);
    }
    t.ok(reached, 'the CTA is reachable by keyboard');
    await page.context().close();
  });

  t.test('should keep a brand-coloured logo and the site name readable on bar headers in light mode', async (t) => {
    const page = await newPage();
    for (const theme of ['cedar', 'slate']) {
      await page.goto(`${server.origin}/${theme}-teal`);
      const logo = await page.evaluate(`(() => {
        const shown = [...document.querySelectorAll('.site-header .logo')].filter((i) => getComputedStyle(i).display !== 'none');
        return { shown: shown.map((i) => i.className), contrast: (${CONTRAST})(getComputedStyle(document.querySelector('.site-header')).backgroundColor, 'rgb(13, 148, 136)') };
      })()`) as { shown: string[]; contrast: number };
      t.same(logo.shown, ['logo logo-dark'], `${theme}: the dark logo is shown on the bar`);
      t.ok(logo.contrast >= 3, `${theme}: a teal mark on the bar ${logo.contrast}:1`);
      await page.goto(`${server.origin}/${theme}-teal-name`);
      const name = await page.evaluate(`(${CONTRAST})(getComputedStyle(document.querySelector('.brand-name')).color, getComputedStyle(document.querySelector('.site-header')).backgroundColor)`) as number;
      t.ok(name >= 4.5, `${theme}: site name ${name}:1`);
    }
    await page.context().close();
  });

  t.test('should show the light or dark image of a pair by mode, with and without JavaScript', async (t) => {
    const shown = (page: Page) => page.evaluate(() => [...document.querySelectorAll('.prose img')].filter((i) => getComputedStyle(i).display !== 'none').map((i) => i.getAttribute('src')));
    const page = await newPage();
    await page.goto(`${server.origin}/images`);
    t.same(await shown(page), ['/pad.svg']);
    await page.click('.header-controls [data-control=appearance]');
    t.same(await shown(page), ['/pad-dark.svg']);
    await page.context().close();
    for (const colorScheme of ['light', 'dark'] as const) {
      const noJs = await newPage({ colorScheme, javaScriptEnabled: false });
      await noJs.goto(`${server.origin}/images`);
      t.same(await shown(noJs), [colorScheme === 'light' ? '/pad.svg' : '/pad-dark.svg'], `system ${colorScheme}, JavaScript off`);
      await noJs.context().close();
    }
  });
});

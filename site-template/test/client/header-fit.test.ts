import t from 'tap';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { THEME_TRAITS, THEMES } from '../../src/node/theme-traits.ts';
import { browseStatic } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { CROWDED_LINKS, CROWDED_TABS, LONG_LOGO_PATH, LONG_LOGO_SVG, crowdedPage, crowdedSite } from '../fixtures/crowded-header.ts';

/** Viewport widths checked: phones, tablets, the widths the header used to break at, laptops, a wide screen. */
const WIDTHS = [320, 390, 768, 900, 1000, 1024, 1280, 1440, 1600];

/** Where each theme × width header is saved for a look (`<theme>-<width>.png`, and `-menu` with the menu open). */
const SHOTS = new URL('../../../test-artifacts/screenshots/header/', import.meta.url).pathname;

/** The logo's drawn width may not fall below this (it used to shrink to a sliver). */
const LOGO_MIN_WIDTH = 96;

/** Something a reader must be able to reach: elements matching `selector`, with exactly `text` when given. */
interface Target { name: string; selector: string; text?: string }

const TARGETS: Target[] = [
  ...CROWDED_TABS.map((text) => ({ name: `tab ${text}`, selector: 'a, summary', text })),
  ...CROWDED_LINKS.map((text) => ({ name: `link ${text}`, selector: 'a', text })),
  { name: 'CTA', selector: 'a.cta', text: 'Get started' },
  { name: 'language switcher', selector: 'details.switcher[data-control=language] > summary' },
  { name: 'version switcher', selector: 'details.switcher[data-control=version] > summary' },
  { name: 'search', selector: 'button.search-open' },
  { name: 'assistant', selector: 'button[data-control=assistant]' },
  { name: 'appearance', selector: 'button[data-control=appearance]' },
];

/** Where a target was found reachable: in the page as it loads, or in the open menu. */
type Reach = Record<string, 'page' | 'menu' | string>;

/**
 * For each target, whether some matching element inside one of `scopes` can be seen and hit: it
 * has a box, is scrolled into view within its own scroll container (a scrollable tab row counts),
 * its centre lies in the viewport and `elementFromPoint` there returns it or something inside it
 * (nothing covers it). Returns the names of the reachable targets, and for the others what
 * covers them. A string, so the transpiler adds no helpers to the page.
 */
const REACHABLE = `({ targets, scopes }) => {
  const roots = scopes.flatMap((s) => [...document.querySelectorAll(s)]);
  const text = (el) => { const c = el.cloneNode(true); c.querySelectorAll('svg, .sr-only').forEach((n) => n.remove()); return c.textContent.replace(/\\s+/g, ' ').trim(); };
  const describe = (el) => el ? el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') : 'nothing';
  const out = {};
  for (const target of targets) {
    let why = 'not rendered';
    for (const root of roots) {
      for (const el of root.querySelectorAll(target.selector)) {
        if (target.text !== undefined && text(el) !== target.text) continue;
        const first = el.getBoundingClientRect();
        if (first.width < 1 || first.height < 1 || getComputedStyle(el).visibility !== 'visible') { why = 'hidden'; continue; }
        el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) { why = 'outside the viewport at ' + Math.round(x) + ',' + Math.round(y); continue; }
        const hit = document.elementFromPoint(x, y);
        if (hit && el.contains(hit)) { why = ''; break; }
        why = 'covered by ' + describe(hit);
      }
      if (!why) break;
    }
    out[target.name] = why;
  }
  return out;
}`;

/** The drawn size of the visible header logo (object-fit honoured) and whether its aspect ratio holds. */
const LOGO = `(() => {
  const img = [...document.querySelectorAll('.site-header .brand img')].find((i) => i.getBoundingClientRect().width > 0);
  if (!img) return { width: 0, height: 0, ratioKept: false };
  const box = img.getBoundingClientRect();
  const ratio = img.naturalWidth / img.naturalHeight;
  const fit = getComputedStyle(img).objectFit;
  const width = fit === 'contain' || fit === 'scale-down' ? Math.min(box.width, box.height * ratio) : box.width;
  const height = fit === 'contain' || fit === 'scale-down' ? width / ratio : box.height;
  return { width: Math.round(width), height: Math.round(height), ratioKept: Math.abs(width / height - ratio) / ratio < 0.02 };
})()`;

/** Horizontal overflow of the document, in CSS pixels (0 when nothing sticks out). */
const OVERFLOW = '(() => Math.max(0, document.documentElement.scrollWidth - innerWidth))()';

/** Runs REACHABLE in the page for `targets` inside `scopes` (CSS selectors). */
const reachable = (page: Page, targets: Target[], scopes: string[]) =>
  page.evaluate<Record<string, string>>(`(${REACHABLE})(${JSON.stringify({ targets, scopes })})`);

interface Case { reach: Reach; overflow: number; menuOverflow: number; logo: { width: number; height: number; ratioKept: boolean }; named: string[] }

/** The header buttons that may show as an icon only, by the accessible name each must keep. */
const NAMED_BUTTONS = ['Search', 'Ask AI', 'Toggle dark mode'];

/** Checks one width: every target in the page, then the rest with the menu open. */
async function check(page: Page, shot: string): Promise<Case> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shot}.png`, clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: 240 } });
  const scopes = ['.site-header', '#sidebar'];
  const first = await reachable(page, TARGETS, scopes);
  const reach: Reach = {};
  for (const [name, why] of Object.entries(first)) reach[name] = why ? why : 'page';
  const overflow = await page.evaluate<number>(OVERFLOW);
  const logo = await page.evaluate<Case['logo']>(LOGO);
  const named: string[] = [];
  for (const name of NAMED_BUTTONS) if (await page.locator('.site-header').getByRole('button', { name, exact: true }).isVisible()) named.push(name);
  let menuOverflow = 0;
  const missing = TARGETS.filter((target) => reach[target.name] !== 'page');
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (missing.length && await toggle.isVisible()) {
    await toggle.click();
    await page.screenshot({ path: `${shot}-menu.png` });
    const menuId = await toggle.getAttribute('aria-controls');
    const inMenu = await reachable(page, missing, [`#${menuId}`]);
    for (const [name, why] of Object.entries(inMenu)) reach[name] = why ? `${reach[name]}; in the menu ${why}` : 'menu';
    menuOverflow = await page.evaluate<number>(OVERFLOW);
    await page.keyboard.press('Escape');
  }
  return { reach, overflow, menuOverflow, logo, named };
}

t.test('header fit', async (t) => {
  const site = await createExampleSite();
  await site.addFile(LONG_LOGO_PATH.slice(1), LONG_LOGO_SVG);
  for (const theme of THEMES) await site.addPage(`/crowded-${theme}`, crowdedSite(theme), crowdedPage());
  const { server, browser } = await browseStatic(t, site.dir);
  await mkdir(SHOTS, { recursive: true });
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 800 }, colorScheme: 'light', reducedMotion: 'reduce' });
  const page = await context.newPage();

  const cases: { theme: string; width: number; result: Case }[] = [];
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      // A fresh load at each width, as a reader arriving on that device would see it.
      await page.goto(`${server.origin}/crowded-${theme}`);
      cases.push({ theme, width, result: await check(page, `${SHOTS}${theme}-${width}`) });
    }
  }
  const unreachable = (c: Case) => Object.entries(c.reach).filter(([, where]) => where !== 'page' && where !== 'menu').map(([name, why]) => `${name}: ${why}`);
  const failing = cases.filter((c) => unreachable(c.result).length || c.result.named.length < NAMED_BUTTONS.length || c.result.overflow || c.result.menuOverflow || c.result.logo.width < LOGO_MIN_WIDTH || !c.result.logo.ratioKept);
  t.comment(`${cases.length} theme × width cases, ${cases.length - failing.length} pass; ${cases.reduce((n, c) => n + unreachable(c.result).length, 0)} unreachable controls in all`);

  t.test('should let every tab, switcher, navbar link and control be seen and hit, on the page or in the menu', async (t) => {
    for (const { theme, width, result } of cases) t.same(unreachable(result), [], `${theme} at ${width} px`);
  });

  t.test('should never make the page scroll sideways, with the menu closed or open', async (t) => {
    for (const { theme, width, result } of cases) t.same([result.overflow, result.menuOverflow], [0, 0], `${theme} at ${width} px`);
  });

  t.test(`should draw the logo at least ${LOGO_MIN_WIDTH} px wide, in its own proportions`, async (t) => {
    for (const { theme, width, result } of cases) {
      t.ok(result.logo.width >= LOGO_MIN_WIDTH && result.logo.ratioKept, `${theme} at ${width} px: ${result.logo.width}×${result.logo.height}${result.logo.ratioKept ? '' : ', distorted'}`);
    }
  });

  // With JavaScript off there is no menu button: the menu's copies stack above the page instead.
  const noJs = await browser.newContext({ viewport: { width: 390, height: 800 }, colorScheme: 'light', javaScriptEnabled: false });
  const plain = await noJs.newPage();
  const linksOnly = TARGETS.filter((target) => !target.selector.startsWith('button'));
  const withoutJs: { theme: string; width: number; missing: string[] }[] = [];
  for (const theme of THEMES) {
    for (const width of [390, 1280]) {
      await plain.setViewportSize({ width, height: 800 });
      await plain.goto(`${server.origin}/crowded-${theme}`);
      const reach = await reachable(plain, linksOnly, ['.site-header', '#sidebar']);
      withoutJs.push({ theme, width, missing: Object.entries(reach).filter(([, why]) => why).map(([name, why]) => `${name}: ${why}`) });
    }
  }
  await noJs.close();

  t.test('should keep every tab, switcher and link reachable with JavaScript off', async (t) => {
    for (const { theme, width, missing } of withoutJs) t.same(missing, [], `${theme} at ${width} px`);
  });

  // Keyboard: Tab walks the header at 1024 px; on a phone, the menu opened with Enter is walked back with Shift+Tab.
  const keyboard: { theme: string; width: number; missing: string[]; unringed: string[] }[] = [];
  const FOCUS = `(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const c = el.cloneNode(true);
    c.querySelectorAll('svg, [aria-hidden="true"]').forEach((n) => n.remove());
    const s = getComputedStyle(el);
    return { name: (el.getAttribute('aria-label') || c.textContent).replace(/\\s+/g, ' ').trim(), inHeader: !!el.closest('.site-header'), inMenu: !!el.closest('#sidebar'), ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 };
  })()`;
  type Focus = { name: string; inHeader: boolean; inMenu: boolean; ring: boolean } | null;
  for (const theme of THEMES) {
    const expected = [...CROWDED_TABS, ...CROWDED_LINKS, 'Get started', 'Language: English'];
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto(`${server.origin}/crowded-${theme}`);
    const seen: Focus[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate<Focus>(FOCUS);
      if (f && !f.inHeader && seen.some((s) => s?.inHeader)) break;
      if (f?.inHeader) seen.push(f);
    }
    const wide = THEME_TRAITS[theme].sidebarFooterControls ? [] : ['Version: v3.2'];
    keyboard.push({ theme, width: 1024, missing: [...expected, ...wide, 'Search', 'Ask AI', 'Toggle dark mode'].filter((n) => !seen.some((s) => s?.name === n)), unringed: seen.filter((s) => !s?.ring).map((s) => s!.name) });

    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${server.origin}/crowded-${theme}`);
    await page.getByRole('button', { name: 'Menu' }).focus();
    await page.keyboard.press('Enter');
    const back: Focus[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Shift+Tab');
      const f = await page.evaluate<Focus>(FOCUS);
      if (!f?.inMenu) break;
      back.push(f);
    }
    const narrow = THEME_TRAITS[theme].sidebarFooterControls ? [] : ['Version: v3.2'];
    keyboard.push({ theme, width: 390, missing: [...expected, ...narrow].filter((n) => !back.some((s) => s?.name === n)), unringed: back.filter((s) => !s?.ring).map((s) => s!.name) });
    await page.keyboard.press('Escape');
  }

  t.test('should reach every tab, switcher, link and button from the keyboard, each stop with a focus ring', async (t) => {
    for (const { theme, width, missing, unringed } of keyboard) t.same({ missing, unringed }, { missing: [], unringed: [] }, `${theme} at ${width} px`);
  });

  t.test('should keep the accessible names of the search, assistant and appearance buttons when they show as icons', async (t) => {
    for (const { theme, width, result } of cases) t.same(result.named, NAMED_BUTTONS, `${theme} at ${width} px`);
  });

  t.test('should move the tabs, switchers and navbar links into the menu only where the menu exists', async (t) => {
    const at = (width: number) => cases.filter((c) => c.width === width);
    for (const { theme, result } of at(1440)) t.same(Object.values(result.reach).filter((w) => w !== 'page'), [], `${theme}: everything in the header at 1440 px`);
    for (const { theme, result } of at(390)) t.equal(result.reach['tab Release notes'], 'menu', `${theme}: the last tab is in the menu at 390 px`);
  });

  await context.close();
});

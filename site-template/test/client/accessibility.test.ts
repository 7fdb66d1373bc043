import t from 'tap';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { THEMES } from '../../src/node/theme-traits.ts';
import { sampleSite } from '../../src/node/sample-site.tsx';
import type { SiteConfig } from '../../src/shared/types.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { everyCodeBlockHtml } from '../fixtures/code-blocks.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

/** axe-core's browser build, injected into each page under test. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Every control the shell can show: assistant button and a language switcher besides the defaults. */
const fullSite = (theme: SiteConfig['theme'], mode: 'light' | 'dark') => sampleSite(theme, { appearance: { default: mode, strict: false }, assistantTrigger: 'button' });
const switchers = { language: { current: 'English', options: [{ label: 'English', href: '/guides/sdk' }, { label: 'Français', href: '/fr/guides/sdk' }] } };

/** What the focused element is, as a reader would name the region it sits in. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { where: 'body' };
  const where = el.closest('.skip-link') ? 'skip' : el.closest('.site-header') ? 'header' : el.closest('#sidebar') ? 'sidebar'
    : el.closest('.toc') ? 'toc' : el.closest('.tab-list') ? 'tabs' : el.matches('.code-copy') ? 'copy' : el.closest('.page') ? 'content' : 'other';
  const s = getComputedStyle(el);
  const shown = el.cloneNode(true);
  shown.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
  return { where, cls: el.className, text: (el.getAttribute('aria-label') || shown.textContent || '').trim().slice(0, 30), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 };
})()`;

/** Runs axe-core in the page: its serious and critical violations as `rule: targets`. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

interface Focused { where: string; cls?: string; text?: string; outline?: boolean }

t.test('accessibility', async (t) => {
  const site = await createExampleSite();
  const codePage = { path: '/code', title: 'Code', bodyHtml: everyCodeBlockHtml(), toc: [], rss: false, markdownPath: '/code.md', feedPath: '/code/rss.xml' };
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) {
      await site.addPage(`/${theme}-${mode}`, fullSite(theme, mode), { switchers });
      await site.addPage(`/code/${theme}-${mode}`, fullSite(theme, mode), { page: codePage });
    }
  }
  const server: StaticServer = await serveStatic(site.dir);
  const browser: Browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    return context.newPage();
  };

  t.test('should have no serious or critical axe-core violation on any theme, light and dark', async (t) => {
    const page = await newPage();
    for (const theme of THEMES) {
      for (const mode of ['light', 'dark']) {
        await page.goto(`${server.origin}/${theme}-${mode}`);
        t.same(await seriousViolations(page), [], `${theme} ${mode}`);
      }
    }
    await page.context().close();
  });

  t.test('should have no serious or critical axe-core violation on a page of every kind of code block, in every theme, light and dark', async (t) => {
    const page = await newPage();
    for (const theme of THEMES) {
      for (const mode of ['light', 'dark']) {
        await page.goto(`${server.origin}/code/${theme}-${mode}`);
        // Checked as readers see it: the diagram drawn, Try it shown, the long block collapsed.
        await page.locator('figure[data-mermaid][data-ready] .mermaid-svg svg').waitFor();
        await page.locator('[data-api-try][data-ready]').waitFor();
        t.same(await seriousViolations(page), [], `${theme} ${mode}`);
      }
    }
    await page.context().close();
  });

  t.test('should have no serious or critical axe-core violation in the open menu on a phone', async (t) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    for (const mode of ['light', 'dark']) {
      await page.goto(`${server.origin}/larch-${mode}`);
      await page.click('.menu-toggle');
      t.same(await seriousViolations(page), [], mode);
    }
    await context.close();
  });

  t.test('should walk header, sidebar, content (tabs, code copy) and TOC with Tab, each stop visibly focused', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/larch-light`);
    const stops: Focused[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const f = (await page.evaluate(FOCUSED)) as Focused;
      if (f.where === 'body' || stops.some((s) => s.where === 'toc') && f.where !== 'toc') break;
      stops.push(f);
    }
    const regions = stops.map((s) => s.where).filter((w, i, a) => w !== a[i - 1]);
    t.same(regions.slice(0, 3), ['skip', 'header', 'sidebar'], 'skip link, then the header, then the sidebar');
    for (const region of ['tabs', 'copy', 'toc']) t.ok(regions.includes(region), `${region} reachable`);
    t.ok(regions.indexOf('toc') > regions.indexOf('copy'), 'the TOC comes after the content');
    const header = stops.filter((s) => s.where === 'header').map((s) => s.text);
    t.same(header, ['Acme Docs', 'Blog', 'Status', 'Search', 'Language: English', 'Ask AI', 'Toggle dark mode', 'Get started']);
    t.same(stops.filter((s) => !s.outline).map((s) => `${s.where} ${s.text}`), [], 'every stop shows a focus outline');
    await page.context().close();
  });

  t.test('should operate search, tabs, code copy and the TOC from the keyboard', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/larch-light`);
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
      }
      return false;
    };
    t.ok(await tabTo('.search-open'), 'search button reached');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => (document.querySelector('dialog.search-dialog') as HTMLDialogElement).open), true, 'Enter opens search');
    t.equal(await page.evaluate(() => document.activeElement?.className), 'search-input');
    await page.keyboard.press('Escape');
    t.equal(await page.evaluate(() => document.activeElement?.matches('.search-open')), true, 'focus returns to the search button');

    t.ok(await tabTo('.tabs [role=tab][aria-selected=true]'), 'tab list reached');
    await page.keyboard.press('ArrowRight');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'pnpm', 'arrow moves to the next tab');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-selected')), 'true');

    await page.goto(`${server.origin}/larch-light`);
    t.ok(await tabTo('.code-copy'), 'copy button reached');
    t.equal(await page.evaluate(() => getComputedStyle(document.activeElement!).opacity), '1', 'visible while focused');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), 'npm install @acme/sdk\nnpx acme init --project my-docs');

    t.ok(await tabTo('.toc a[href="#authenticate"]'), 'TOC link reached');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => location.hash), '#authenticate');
    t.ok(await page.evaluate(() => { const r = document.getElementById('authenticate')!.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2; }), 'the section is scrolled into view');
    await page.context().close();
  });
});

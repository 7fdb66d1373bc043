import t from 'tap';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { SNIPPET, sampleSite } from '../../src/node/sample-site.tsx';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

const MARKDOWN = '# SDK guide\n\nInstall the SDK, authenticate and make your first call.\n';
const INSTALL = 'npm install @acme/sdk\nnpx acme init --project my-docs';
const SHOTS = new URL('../../../test-artifacts/screenshots/', import.meta.url).pathname;

t.test('client scripts', async (t) => {
  const site = await createExampleSite();
  await site.addPage('/interactive');
  await site.addPage('/strict', sampleSite('larch', { appearance: { default: 'dark', strict: true } }));
  await site.addFile('guides/sdk.md', MARKDOWN);
  const svg = (fill: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><rect width="80" height="20" fill="${fill}"/></svg>`)}`;
  await site.addPage('/branded', sampleSite('larch', {
    colors: { primary: '#0055aa', dark: '#003366', light: '#99ccff', logo: { light: svg('#000'), dark: svg('#fff'), href: '/' } },
    background: { light: 'linear-gradient(#ffffff, #eeeeee)', dark: '#101010' },
    typography: { fontFamily: 'Verdana, sans-serif', headingFont: 'Georgia, serif' },
  }));
  await mkdir(SHOTS, { recursive: true });
  const server: StaticServer = await serveStatic(site.dir);
  const browser: Browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  const newPage = async (opts: Parameters<Browser['newContext']>[0] = {}): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', ...opts });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    return context.newPage();
  };

  t.test('should toggle dark mode and remember the choice across loads', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    t.equal(await page.getAttribute('html', 'data-mode'), 'light');
    await page.click('.header-controls [data-control=appearance]');
    t.equal(await page.getAttribute('html', 'data-mode'), 'dark');
    t.equal(await page.getAttribute('.header-controls [data-control=appearance]', 'aria-pressed'), 'true');
    t.equal(await page.evaluate(() => localStorage.getItem('folio-mode')), 'dark');
    await page.reload();
    t.equal(await page.getAttribute('html', 'data-mode'), 'dark');
    await page.context().close();
  });

  t.test('should hide the toggle and ignore a stored choice when strict', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    await page.evaluate(() => localStorage.setItem('folio-mode', 'light'));
    await page.goto(`${server.origin}/strict`);
    t.equal(await page.locator('[data-control=appearance]').count(), 0);
    t.equal(await page.getAttribute('html', 'data-mode'), 'dark');
    await page.context().close();
  });

  t.test('should copy the raw code and show the check icon for a moment', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    const block = page.locator('figure.code-block').first();
    const button = block.locator('.code-copy');
    t.equal(await button.isVisible(), true, 'shown in a secure context');
    t.equal(await button.evaluate((b) => getComputedStyle(b).opacity), '0', 'invisible until hover or focus');
    await block.hover();
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.code-copy')!).opacity === '1');
    await button.click();
    await page.waitForFunction(() => document.querySelector('.code-copy')!.hasAttribute('data-copied'));
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), INSTALL);
    t.equal(await button.locator('.icon-check').isVisible(), true);
    t.equal(await button.locator('.icon-copy').isVisible(), false);
    t.equal(await button.getAttribute('aria-label'), 'Copied');
    await page.waitForFunction(() => !document.querySelector('.code-copy')!.hasAttribute('data-copied'), undefined, { timeout: 5000 });
    t.equal(await button.locator('.icon-copy').isVisible(), true);
    t.equal(await button.getAttribute('aria-label'), 'Copy code');
    const html = page.locator('figure.code-block[data-lang=html]');
    await html.hover();
    await html.locator('.code-copy').click();
    await page.waitForFunction(() => document.querySelector('figure[data-lang=html] .code-copy')!.hasAttribute('data-copied'));
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), SNIPPET, 'markup characters come back unescaped');
    await page.context().close();
  });

  t.test('should show the copy button on keyboard focus', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    await page.focus('.page-actions .copy-page');
    // Tab onwards until the first copy button has focus.
    for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.classList.contains('code-copy'))); i++) await page.keyboard.press('Tab');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.code-copy')!).opacity === '1');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Copy code');
    await page.context().close();
  });

  t.test('should copy the page as Markdown', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    await page.click('.copy-page');
    await page.waitForFunction(() => document.querySelector('.copy-page')!.hasAttribute('data-copied'));
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), MARKDOWN);
    t.equal(page.url(), `${server.origin}/interactive`, 'stays on the page');
    await page.context().close();
  });

  t.test('should collapse expandable code and expand it on request', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    const block = page.locator('figure.code-block[data-expandable]');
    const pre = block.locator('pre');
    t.equal(await block.getAttribute('data-collapsed'), '');
    const collapsed = await pre.evaluate((p) => ({ client: p.clientHeight, scroll: p.scrollHeight }));
    t.ok(collapsed.client < collapsed.scroll, 'lines past the 15th are cut off');
    await block.locator('.code-expand').click();
    t.equal(await block.getAttribute('data-collapsed'), null);
    t.equal(await block.locator('.code-expand').getAttribute('aria-expanded'), 'true');
    t.equal(await block.locator('.code-expand').textContent(), 'Show less');
    const open = await pre.evaluate((p) => ({ client: p.clientHeight, scroll: p.scrollHeight }));
    t.equal(open.client, open.scroll, 'every line shows');
    await page.context().close();
  });

  t.test('should switch tabs by click and arrow keys', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    const tabs = page.locator('.tabs [role=tab]');
    const panels = page.locator('.tabs [role=tabpanel]');
    t.same(await panels.evaluateAll((ps) => ps.map((p) => (p as HTMLElement).hidden)), [false, true]);
    await tabs.nth(1).click();
    t.same(await tabs.evaluateAll((ts) => ts.map((x) => x.getAttribute('aria-selected'))), ['false', 'true']);
    t.same(await panels.evaluateAll((ps) => ps.map((p) => (p as HTMLElement).hidden)), [true, false]);
    await page.keyboard.press('ArrowRight');
    t.same(await tabs.evaluateAll((ts) => ts.map((x) => x.getAttribute('aria-selected'))), ['true', 'false'], 'wraps around');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'npm');
    const group = await page.locator('.code-group [role=tab]').allTextContents();
    t.same(group, ['client.ts', 'client.py'], 'code group tabs come from block titles');
    await page.context().close();
  });

  t.test('should reach the sidebar by keyboard and open search with /', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
    let inSidebar = false;
    for (let i = 0; i < 20 && !inSidebar; i++) {
      await page.keyboard.press('Tab');
      inSidebar = await page.evaluate(() => !!document.activeElement?.closest('#sidebar a'));
    }
    t.ok(inSidebar, 'Tab reaches the sidebar links');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('/');
    t.equal(await page.locator('dialog.search-dialog').evaluate((d) => (d as HTMLDialogElement).open), true);
    t.equal(await page.evaluate(() => document.activeElement?.className), 'search-input');
    await page.keyboard.press('Escape');
    t.equal(await page.locator('dialog.search-dialog').evaluate((d) => (d as HTMLDialogElement).open), false);
    await page.keyboard.press('Control+k');
    t.equal(await page.locator('dialog.search-dialog').evaluate((d) => (d as HTMLDialogElement).open), true);
    await page.context().close();
  });

  t.test('should show the sidebar from the menu button on a phone', async (t) => {
    const page = await newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(`${server.origin}/interactive`);
    t.equal(await page.locator('#sidebar').isVisible(), false);
    await page.click('.menu-toggle');
    t.equal(await page.locator('#sidebar').isVisible(), true);
    t.equal(await page.getAttribute('.menu-toggle', 'aria-expanded'), 'true');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-current')), 'page', 'focus moves to the current page link');
    t.equal(await page.locator('#sidebar').evaluate((s) => s.getBoundingClientRect().bottom), 800, 'covers the page below the header');
    await page.screenshot({ path: `${SHOTS}mobile-menu.png` });
    await page.keyboard.press('Escape');
    t.equal(await page.locator('#sidebar').isVisible(), false);
    await page.context().close();
  });

  t.test('should mark the TOC entry of the section in view', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    t.same(await page.locator('.toc a[aria-current]').allTextContents(), []);
    await page.evaluate(() => document.getElementById('authenticate')!.scrollIntoView());
    await page.waitForFunction(() => document.querySelector('.toc a[aria-current]')?.textContent === 'Authenticate');
    t.same(await page.locator('.toc a[aria-current]').allTextContents(), ['Authenticate']);
    await page.context().close();
  });

  t.test('should apply site colours, backgrounds, fonts and logos per mode', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/branded`);
    const look = () => page.evaluate(() => ({
      link: getComputedStyle(document.querySelector('.pager-title')!).color,
      button: getComputedStyle(document.querySelector('.site-header .cta[data-style=solid]')!).backgroundColor,
      background: getComputedStyle(document.body).backgroundImage + ' ' + getComputedStyle(document.body).backgroundColor,
      body: getComputedStyle(document.body).fontFamily,
      heading: getComputedStyle(document.querySelector('h1')!).fontFamily,
      logos: [...document.querySelectorAll('.site-header .logo')].map((i) => getComputedStyle(i).display),
    }));
    // Mintlify's meaning: primary the light-mode emphasis, light the dark-mode one, dark the buttons' in both.
    t.same(await look(), {
      link: 'rgb(0, 85, 170)',
      button: 'rgb(0, 51, 102)',
      background: 'linear-gradient(rgb(255, 255, 255), rgb(238, 238, 238)) rgba(0, 0, 0, 0)',
      body: 'Verdana, sans-serif',
      heading: 'Georgia, serif',
      logos: ['block', 'none'],
    });
    await page.click('.header-controls [data-control=appearance]');
    t.same(await look(), {
      link: 'rgb(153, 204, 255)',
      button: 'rgb(0, 51, 102)',
      background: 'none rgb(16, 16, 16)',
      body: 'Verdana, sans-serif',
      heading: 'Georgia, serif',
      logos: ['none', 'block'],
    });
    await page.context().close();
  });

  t.test('should keep agents-only content in the DOM but hidden', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    const agents = page.locator('[data-visibility=agents]');
    t.equal(await agents.textContent(), 'Agents: prefer the REST API over scraping pages.');
    t.equal(await agents.isVisible(), false);
    t.equal(await page.locator('[data-visibility=humans]').isVisible(), true);
    await page.context().close();
  });

  t.test('should send a feedback beacon', async (t) => {
    const page = await newPage();
    await page.goto(`${server.origin}/interactive`);
    await page.click('[data-feedback=up]');
    t.equal(await page.textContent('.feedback-thanks'), 'Thanks for the feedback!');
    await page.waitForFunction(() => true);
    // Pages closed by earlier subtests may have sent time-on-page beacons: only feedback counts here.
    const feedback = () => server.beacons.filter((b) => b.startsWith('/_folio/feedback'));
    for (let i = 0; i < 50 && !feedback().length; i++) await new Promise((r) => setTimeout(r, 20));
    t.same(feedback(), ['/_folio/feedback {"path":"/interactive","helpful":true}']);
    await page.context().close();
  });

  t.test('should read fine with JavaScript off', async (t) => {
    const page = await newPage({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    await page.goto(`${server.origin}/interactive`);
    t.equal(await page.locator('#sidebar').isVisible(), true, 'sidebar stacks above the content');
    t.equal(await page.locator('.menu-toggle').isVisible(), false);
    t.equal(await page.locator('.search-open').isVisible(), false);
    t.equal(await page.locator('figure.code-block[data-expandable]').getAttribute('data-collapsed'), null);
    t.same(await page.locator('.tabs [role=tabpanel]').evaluateAll((ps) => ps.map((p) => getComputedStyle(p).display)), ['block', 'block']);
    await page.context().close();
  });
});

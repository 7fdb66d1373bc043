import { fileURLToPath } from 'node:url';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

/** The repository using every Mintlify component and page key (see mintlify-components.test.ts). */
const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-components/', import.meta.url));

t.teardown(closePagefind);

t.test('Mintlify components and page modes in the browser', async (t) => {
  const out = tempDir();
  await build({ source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: 'https://trail.example', year: 2026 });
  const { server, browser } = await browseStatic(t, out);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  const page = await context.newPage();

  await t.test('should offer the views in one selector, show the chosen one and remember it', async (t) => {
    await page.goto(`${server.origin}/components/views`);
    t.same(await page.locator('.view-select option').allTextContents(), ['JavaScript', 'Python']);
    t.equal(await page.isVisible('section.view[data-view="JavaScript"]'), true);
    t.equal(await page.isVisible('section.view[data-view="Python"]'), false, 'one view at a time');
    t.equal(await page.isVisible('.toc a[href="#install-for-python"]'), false, 'the TOC lists the shown view\'s headings');
    await page.selectOption('.view-select select', 'Python');
    t.equal(await page.isVisible('section.view[data-view="Python"]'), true);
    t.equal(await page.isVisible('section.view[data-view="JavaScript"]'), false);
    await page.reload();
    t.equal(await page.inputValue('.view-select select'), 'Python', 'remembered across loads');
    t.equal(await page.isVisible('section.view[data-view="Python"]'), true);
  });

  await t.test('should copy a prompt\'s text with its button, inline code staying inline', async (t) => {
    await page.goto(`${server.origin}/components/code`);
    const prompt = page.locator('figure.prompt');
    t.equal(await prompt.locator('code').evaluate((el) => getComputedStyle(el).display), 'inline');
    await prompt.hover();
    await prompt.locator('.code-copy').click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), 'Plan a two-day hike on the ridge trail with one hut stop.');
  });

  await t.test('should render a CodeBlock from a custom component with line numbers, a highlighted line and a copy button', async (t) => {
    const block = page.locator('figure.code-block[data-lang="bash"]').first();
    t.equal(await block.locator('.code-title').textContent(), 'install.sh');
    t.same(await block.locator('.line').allTextContents(), ['npm install trail', 'npx trail init']);
    t.equal(await block.locator('.line.highlighted').textContent(), 'npx trail init');
    t.equal(await block.locator('.line').first().evaluate((el) => getComputedStyle(el, '::before').content), 'counter(line)', 'numbered lines');
    await block.hover();
    await block.locator('.code-copy').click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), 'npm install trail\nnpx trail init');
  });

  await t.test('should draw no title block over a frame page\'s hero art, and keep its sidebar', async (t) => {
    await page.goto(`${server.origin}/layouts/frame`);
    t.equal(await page.isVisible('.page-header'), false);
    t.equal(await page.isVisible('.hero img'), true);
    t.equal(await page.isVisible('.sidebar'), true);
    t.equal(await page.isVisible('.toc'), false);
  });

  await t.test('should drop the TOC in wide mode, sidebar and TOC in center mode, everything but the header in custom mode', async (t) => {
    await page.goto(`${server.origin}/components/code`);
    const normal = await page.locator('.content').evaluate((el) => el.getBoundingClientRect().width);
    t.equal(await page.isVisible('.toc'), true, 'a default page has its TOC');
    await page.goto(`${server.origin}/layouts/wide`);
    t.equal(await page.isVisible('.toc'), false);
    t.equal(await page.isVisible('.sidebar'), true);
    t.ok(await page.locator('.content').evaluate((el) => el.getBoundingClientRect().width) > normal, 'wider content');
    await page.goto(`${server.origin}/layouts/center`);
    t.equal(await page.isVisible('.toc'), false);
    t.equal(await page.isVisible('.sidebar'), false);
    const [left, right] = await page.locator('.content').evaluate((el) => [el.getBoundingClientRect().left, window.innerWidth - el.getBoundingClientRect().right]);
    t.ok(Math.abs(left - right) <= 2, 'centred');
    await page.goto(`${server.origin}/layouts/custom`);
    t.equal(await page.isVisible('.site-header'), true);
    for (const gone of ['.sidebar', '.toc', '.page-header', '.site-footer', '.pager']) t.equal(await page.isVisible(gone), false, `${gone} hidden`);
  });

  await t.test('should open the tab menu and list its items', async (t) => {
    await page.goto(`${server.origin}/`);
    await page.click('.tab-menu summary');
    t.same(await page.locator('.tab-menu .tab-menu-title').allTextContents(), ['CLI', 'Cloud']);
    await page.click('.tab-menu a:has-text("Cloud")');
    await page.waitForURL(`${server.origin}/products/cloud/overview`);
    t.same(await page.locator('.sidebar-nav a').allTextContents(), ['cloud overview']);
  });

  await t.test('should find a page by its keywords and never find noindex or hidden pages', async (t) => {
    await page.goto(`${server.origin}/components/code`);
    const search = async (query: string) => {
      await page.click('.search-open');
      // The dialog keeps the last query's results until the next one is answered: clear them first,
      // so what is read below is this query's answer (its status says how many, or none).
      await page.fill('.search-input', '');
      await page.waitForSelector('.search-status:empty', { state: 'attached' });
      await page.fill('.search-input', query);
      await page.waitForSelector('.search-status:not(:empty)', { state: 'attached' });
      const hrefs = await page.locator('.search-result a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      await page.keyboard.press('Escape');
      return hrefs;
    };
    t.same(await search('cairn'), ['/']);
    t.same(await search('bergschrund'), [], 'the noindex page says "Notes about the bergschrund"');
    t.same(await search('reachable'), [], 'the hidden page says "Reachable by its URL"');
  });

  await t.test('should filter updates by tag', async (t) => {
    await page.goto(`${server.origin}/changelog`);
    t.same(await page.locator('.update-filter button').allTextContents(), ['Maps', 'Huts']);
    await page.click('.update-filter button:has-text("Huts")');
    t.same(await page.locator('section.update:visible').evaluateAll((els) => els.map((el) => el.id || 'unlabelled')), ['2026-11', 'unlabelled']);
    await page.click('.update-filter button:has-text("Huts")');
    t.equal(await page.locator('section.update:visible').count(), 3, 'all again when no tag is chosen');
  });
});

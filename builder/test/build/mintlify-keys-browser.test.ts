import { fileURLToPath } from 'node:url';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

/** The repository using every Mintlify key (see mintlify-keys.test.ts). */
const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-keys/', import.meta.url));

t.teardown(closePagefind);

t.test('Mintlify menus and search settings in the browser', async (t) => {
  const out = tempDir();
  await build({ source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: 'https://lantern.example', year: 2026 });
  const { server, browser } = await browseStatic(t, out);
  const page = await browser.newPage();

  await t.test('should open a tab\'s menu and lead to the item\'s first page, its groups in the sidebar', async (t) => {
    await page.goto(`${server.origin}/`);
    t.equal(await page.isVisible('.tab-menu a:has-text("Lens")'), false, 'closed until clicked');
    await page.click('.tab-menu summary');
    t.same(await page.locator('.tab-menu .tab-menu-title').allTextContents(), ['Beam', 'Lens', 'Parts store']);
    t.equal(await page.isVisible('.tab-menu a:has-text("Lens")'), true, 'not clipped by the tab row');
    await page.click('.tab-menu a:has-text("Lens")');
    await page.waitForURL(`${server.origin}/lens/overview`);
    t.same(await page.locator('.sidebar-nav a').allTextContents(), ['Lens overview']);
    t.equal(await page.getAttribute('.tab-menu summary', 'aria-current'), 'true');
  });

  await t.test('should rank boosted pages first and leave unsearchable tabs out of search', async (t) => {
    await page.goto(`${server.origin}/usage/basics`);
    await page.click('.search-open');
    await page.fill('.search-input', 'workshop');
    await page.waitForSelector('.search-result');
    const results = await page.locator('.search-result a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    // Install (its group's boost 3), Basics (its own boost 2), Tuning (0.5); the Archive tab's page is not searchable.
    t.same(results, ['/install', '/usage/basics', '/deeper/tuning']);
  });
});

import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';
import { VERSIONED_SITE } from '../helpers/versioned-site.ts';

t.teardown(closePagefind);

t.test('versions and languages in the browser', async (t) => {
  const dir = tempDir();
  writeFiles(dir, VERSIONED_SITE);
  const out = tempDir();
  await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://acme.example', year: 2026 });
  const { server, browser } = await browseStatic(t, out);
  const page = await browser.newPage();
  const search = async (query: string) => {
    await page.click('.search-open');
    await page.fill('.search-input', query);
    await page.waitForSelector('.search-result');
    const results = await page.locator('.search-result a').evaluateAll((links) => links.map((a) => `${a.querySelector('.search-title')?.textContent} ${a.getAttribute('href')}`));
    await page.keyboard.press('Escape');
    return results;
  };

  await t.test('should switch version, then language, keeping the page', async (t) => {
    await page.goto(`${server.origin}/guides/install`);
    t.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.click('details[data-control=version] summary');
    await page.click('details[data-control=version] a:text-is("v2")');
    await page.waitForURL(`${server.origin}/v2/guides/install`);
    t.equal(await page.textContent('h1'), 'Install v2');
    t.equal(await page.locator('.fallback-note').count(), 0, 'v2 has its own install page');
    await page.click('details[data-control=language] summary');
    await page.click('details[data-control=language] a:text-is("Français")');
    await page.waitForURL(`${server.origin}/fr/v2/guides/install`);
    t.equal(await page.getAttribute('html', 'lang'), 'fr');
    t.equal(await page.textContent('h1'), 'Install v2');
    t.equal(await page.textContent('.fallback-note'), "Cette page n'est pas encore disponible en Français ; elle est affichée en English.");
    t.equal(await page.textContent('details[data-control=version] summary'), 'v2');
  });

  await t.test('should search the current version and language only, linking within them', async (t) => {
    t.same(await search('zephyr'), ['Install v2 /fr/v2/guides/install']);
    await page.goto(`${server.origin}/guides/auth`);
    t.same(await search('zephyr'), ['Install /guides/install']);
    await page.goto(`${server.origin}/fr/guides/auth`);
    t.same(await search('zephyr'), ['Install /fr/guides/install']);
  });
});

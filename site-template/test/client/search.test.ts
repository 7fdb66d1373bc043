import t from 'tap';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic } from '../helpers/static-server.ts';

/** Indexes the given pages (URL → file under the site) into a Pagefind bundle at `bundle`. */
async function indexPages(dir: string, bundle: string, pages: Record<string, string>): Promise<void> {
  // The builder indexes pages without their heading `#` anchors (search-shards.ts); so does this.
  const { index, errors } = await pagefind.createIndex({ excludeSelectors: ['.heading-anchor'] });
  if (!index) throw new Error(errors.join('; '));
  for (const [url, file] of Object.entries(pages)) {
    await index.addHTMLFile({ url, content: await readFile(join(dir, file), 'utf8') });
  }
  await index.writeFiles({ outputPath: join(dir, bundle) });
}

t.test('search', async (t) => {
  const site = await createExampleSite();
  const sharded = { searchBase: '/_pagefind/,/_pagefind-2/' };
  await site.addPage('/guides/sdk', undefined, sharded);
  await site.addPage('/quickstart', undefined, {
    ...sharded,
    page: {
      path: '/quickstart', title: 'Quickstart', bodyHtml: '<p>Deploy with the zephyrine command in one minute.</p><h2 id="verify">Verify</h2><p>Open the zephyrine dashboard.</p>',
      toc: [], rss: false, markdownPath: '/quickstart.md', feedPath: '/quickstart/rss.xml',
    },
  });
  // Two bundles, as the builder produces for a sharded index: the client merges them.
  await indexPages(site.dir, '_pagefind', { '/guides/sdk': 'guides/sdk.html' });
  await indexPages(site.dir, '_pagefind-2', { '/quickstart': 'quickstart.html' });
  await pagefind.close();
  await mkdir(new URL('../../../test-artifacts/screenshots/', import.meta.url), { recursive: true });
  const server = await serveStatic(site.dir);
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  const page = await browser.newPage();
  await page.goto(`${server.origin}/guides/sdk`);

  t.test('should find a page section with its title and snippet', async (t) => {
    await page.click('.search-open');
    await page.fill('.search-input', 'authenticating');
    await page.waitForSelector('.search-result');
    const first = await page.locator('.search-result').first().evaluate((li) => ({
      title: li.querySelector('.search-title')?.textContent,
      section: li.querySelector('.search-section')?.textContent,
      href: li.querySelector('a')?.getAttribute('href'),
      excerpt: li.querySelector('.search-excerpt')?.innerHTML,
      selected: li.getAttribute('aria-selected'),
    }));
    t.equal(first.title, 'SDK guide');
    t.equal(first.section, 'Authenticate');
    t.equal(first.href, '/guides/sdk#authenticate');
    // Pagefind stems the query, so the section heading itself is the highlighted match.
    t.match(first.excerpt, /^<mark>Authenticate\.<\/mark> Create an API key/);
    t.equal(first.selected, 'true');
    await page.screenshot({ path: new URL('../../../test-artifacts/screenshots/search.png', import.meta.url).pathname });
  });

  t.test('should search the merged shard and open a result with the keyboard', async (t) => {
    await page.fill('.search-input', 'zephyrine');
    await page.waitForFunction(() => document.querySelector('.search-title')?.textContent === 'Quickstart');
    t.equal(await page.locator('.search-result').count(), 1);
    t.equal(await page.textContent('.search-status'), '1 result');
    await page.keyboard.press('ArrowDown');
    t.equal(await page.getAttribute('.search-result', 'aria-selected'), 'true', 'wraps to the only result');
    await Promise.all([page.waitForURL(/\/quickstart/), page.keyboard.press('Enter')]);
    t.match(page.url(), `${server.origin}/quickstart`);
  });

  t.test('should say when nothing matches', async (t) => {
    await page.goto(`${server.origin}/guides/sdk`);
    await page.keyboard.press('Control+k');
    await page.fill('.search-input', 'qqqxxyy');
    await page.waitForFunction(() => document.querySelector('.search-status')?.textContent !== '');
    t.equal(await page.textContent('.search-status'), 'No results for “qqqxxyy”');
    t.equal(await page.locator('.search-result').count(), 0);
  });

  t.test('should close with one Esc while the box holds text, and keep the text for the next open', async (t) => {
    await page.goto(`${server.origin}/guides/sdk`);
    await page.click('.search-open');
    await page.fill('.search-input', 'zephyrine');
    await page.waitForSelector('.search-result');
    await page.keyboard.press('Escape');
    t.equal(await page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog.search-dialog')?.open), false, 'the dialog is closed');
    t.equal(await page.evaluate(() => document.activeElement?.matches('.search-open')), true, 'focus is back on the search button');
    await page.keyboard.press('Control+k');
    t.equal(await page.inputValue('.search-input'), 'zephyrine', 'the last query is there again');
    t.same(await page.evaluate(() => { const i = document.querySelector<HTMLInputElement>('.search-input')!; return [i.selectionStart, i.selectionEnd]; }), [0, 9], 'selected, so typing replaces it');
  });
});

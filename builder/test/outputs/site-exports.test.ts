import t from 'tap';
import { llmsTxt } from '../../src/outputs/llms-txt.ts';
import { siteFeed } from '../../src/outputs/rss-feeds.ts';
import { parseConfig } from '../../src/config/parse-config.ts';
import { siteNav } from '../../src/nav/dimension-nav.ts';
import { pageExports, siteWideExports, siteWideKeys } from '../../src/outputs/site-exports.ts';
import { VERSIONED_SITE } from '../helpers/versioned-site.ts';
import { sitemapXml } from '../../src/outputs/sitemap.ts';
import { nav, pages, site } from './sample-site.ts';

t.test('site exports', async (t) => {
  t.test('should emit each page\'s own exports and the site-wide ones at their keys', async (t) => {
    t.same(pages.flatMap((page) => pageExports(page, site).map(([key]) => key)), [
      'guides/install.md', 'guides/install/rss.xml', 'index.md', 'index/rss.xml', 'changelog.md', 'changelog/rss.xml',
    ]);
    t.same([...siteWideExports(pages, site, { nav }).keys()], ['rss.xml', 'llms.txt', 'llms-full.txt', 'sitemap.xml', 'robots.txt', '_redirects.json']);
  });

  t.test('should know the site-wide keys before the files are made, with and without languages and versions', async (t) => {
    t.same(siteWideKeys(), [...siteWideExports(pages, site, { nav }).keys()]);
    const config = parseConfig(VERSIONED_SITE['docs.json'], { siteUrl: 'https://acme.example', basePath: '' });
    const written = Object.keys(VERSIONED_SITE).filter((p) => p.endsWith('.mdx')).map((sourcePath) => ({
      sourcePath, urlPath: `/${sourcePath.slice('docs/'.length, -'.mdx'.length)}`.replace(/\/index$/, '/').replace(/(.)\/$/, '$1'), title: sourcePath,
    }));
    const { nav: first, dimensions } = siteNav(written, config);
    t.ok(dimensions, 'the site has languages and versions');
    const keys = siteWideKeys(dimensions);
    t.same(keys, [...siteWideExports(written.map((p) => ({ ...p, description: '', markdown: 'Text.', updates: [] })), config, { nav: first, dimensions }).keys()]);
    t.ok(keys.includes('fr/v2/llms-full.txt') && keys.includes('llms-full.txt'), 'one pair of LLM exports per language and version');
  });

  t.test('should end each Markdown export with exactly one newline', async (t) => {
    t.equal(pageExports(pages[0], site)[0][1], '# Install [beta]\n\nGet Acme running.\n\n```sh\nnpm i acme\n```\n');
    t.equal(pageExports(pages[1], site)[0][1], '# Welcome\n\nHello.\n');
  });

  t.test('should make the same llms-full.txt from trimmed Markdown bytes as from the text', async (t) => {
    const asBytes = pages.map((page) => ({ ...page, markdown: Buffer.from(page.markdown.trim()) }));
    t.same(siteWideExports(asBytes, site, { nav }).get('llms-full.txt'), siteWideExports(pages, site, { nav }).get('llms-full.txt'));
  });

  t.test('should leave hidden: true pages out of llms.txt and llms-full.txt, and keep their own exports', async (t) => {
    const withHidden = pages.map((page, i) => (i === 0 ? { ...page, hidden: true as const } : page));
    const files = siteWideExports(withHidden, site, { nav });
    const llms = String(files.get('llms.txt'));
    const full = String(files.get('llms-full.txt'));
    t.notMatch(llms, '/guides/install', 'not listed in llms.txt');
    t.notMatch(full, 'npm i acme', 'its Markdown is not in llms-full.txt');
    t.match(llms, '[Welcome](https://acme.docs.example/docs/index.md)', 'the other pages still are');
    t.match(full, 'Hello.');
    t.same(pageExports(withHidden[0], site).map(([key]) => key), ['guides/install.md', 'guides/install/rss.xml'], 'its own Markdown export is still made');
    t.equal(llms, llmsTxt(pages.slice(1), site, nav), 'as if the page were not there');
    t.equal(String(siteWideExports(pages, site, { nav }).get('llms.txt')), llmsTxt(pages, site, nav), 'listed again once no longer hidden');
  });

  t.test('should make the feed, the sitemap and llms.txt again whenever a field they read changes, build after build', async (t) => {
    const made = (list: typeof pages, config = site, order = nav) => {
      const files = siteWideExports(list, config, { nav: order });
      return { feed: files.get('rss.xml'), sitemap: files.get('sitemap.xml'), llms: files.get('llms.txt') };
    };
    const fresh = (list: typeof pages, config = site, order = nav) => ({ feed: siteFeed(list, config), sitemap: sitemapXml(list, config), llms: llmsTxt(list, config, order) });
    const edit = (i: number, change: Partial<(typeof pages)[number]>) => pages.map((page, j) => (j === i ? { ...page, ...change } : page));
    const changes: Array<[string, typeof pages, typeof site?, typeof nav?]> = [
      ['the same pages', pages],
      ['a body edited (read by none of them)', edit(0, { markdown: 'Changed.' })],
      ['a title', edit(0, { title: 'Setting up' })],
      ['a description', edit(1, { description: 'A new description' })],
      ['an update', edit(2, { updates: [{ id: 'v9', label: 'v9', date: '2030-01-01', html: '<p>New</p>', description: 'New' }] })],
      ['a page left out of the sitemap', edit(1, { seo: { indexing: 'noindex' } })],
      ['a page moved', edit(0, { urlPath: '/guides/setup' })],
      ['a page removed', pages.slice(1)],
      ['the site renamed', pages, { ...site, name: 'Other' }],
      ['the site moved', pages, { ...site, siteUrl: 'https://other.example' }],
      ['the sidebar reordered', pages, site, [...nav].reverse()],
      ['back to the start', pages],
    ];
    for (const [name, list, config, order] of changes) t.same(made(list, config, order), fresh(list, config, order), name);
  });
});

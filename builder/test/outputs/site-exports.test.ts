import t from 'tap';
import { pageExports, siteWideExports } from '../../src/outputs/site-exports.ts';
import { nav, pages, site } from './sample-site.ts';

t.test('site exports', async (t) => {
  t.test('should emit each page\'s own exports and the site-wide ones at their keys', async (t) => {
    t.same(pages.flatMap((page) => pageExports(page, site).map(([key]) => key)), [
      'guides/install.md', 'guides/install/rss.xml', 'index.md', 'index/rss.xml', 'changelog.md', 'changelog/rss.xml',
    ]);
    t.same([...siteWideExports(pages, site, { nav }).keys()], ['rss.xml', 'llms.txt', 'llms-full.txt', 'sitemap.xml', 'robots.txt', '_redirects.json']);
  });

  t.test('should end each Markdown export with exactly one newline', async (t) => {
    t.equal(pageExports(pages[0], site)[0][1], '# Install [beta]\n\nGet Acme running.\n\n```sh\nnpm i acme\n```\n');
    t.equal(pageExports(pages[1], site)[0][1], '# Welcome\n\nHello.\n');
  });

  t.test('should make the same llms-full.txt from trimmed Markdown bytes as from the text', async (t) => {
    const asBytes = pages.map((page) => ({ ...page, markdown: Buffer.from(page.markdown.trim()) }));
    t.same(siteWideExports(asBytes, site, { nav }).get('llms-full.txt'), siteWideExports(pages, site, { nav }).get('llms-full.txt'));
  });
});

import t from 'tap';
import { siteExports } from '../../src/outputs/site-exports.ts';
import { nav, pages, site } from './sample-site.ts';

t.test('siteExports', async (t) => {
  t.test('should emit every export at its key', async (t) => {
    const files = siteExports(pages, site, { nav });
    t.same([...files.keys()], [
      'guides/install.md', 'index.md', 'changelog.md',
      'guides/install/rss.xml', 'index/rss.xml', 'changelog/rss.xml', 'rss.xml',
      'llms.txt', 'llms-full.txt', 'sitemap.xml', 'robots.txt', '_redirects.json',
    ]);
  });

  t.test('should end each Markdown export with exactly one newline', async (t) => {
    const files = siteExports(pages, site, { nav });
    t.equal(files.get('guides/install.md'), '# Install [beta]\n\nGet Acme running.\n\n```sh\nnpm i acme\n```\n');
    t.equal(files.get('index.md'), '# Welcome\n\nHello.\n');
  });
});

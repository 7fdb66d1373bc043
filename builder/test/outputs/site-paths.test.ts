import t from 'tap';
import { absoluteUrl, feedKey, htmlKey, markdownKey, sitePath } from '../../src/outputs/site-paths.ts';

t.test('site paths', async (t) => {
  t.test('should use clean URLs for shells and keep the root feed off /rss.xml', async (t) => {
    t.same(['/', '/guides/install'].map((p) => [htmlKey(p), markdownKey(p), feedKey(p)]), [
      ['index.html', 'index.md', 'index/rss.xml'],
      ['guides/install/index.html', 'guides/install.md', 'guides/install/rss.xml'],
    ]);
  });

  t.test('should build absolute URLs from origin, base and path', async (t) => {
    t.equal(absoluteUrl({ siteUrl: 'https://a.example/', basePath: '/docs' }, sitePath('llms.txt')), 'https://a.example/docs/llms.txt');
    t.equal(absoluteUrl({ siteUrl: 'https://a.example', basePath: '' }, '/'), 'https://a.example/');
  });
});

import t from 'tap';
import { robotsTxt, sitemapXml } from '../../src/outputs/sitemap.ts';
import { pages, site } from './sample-site.ts';

const noindex = { ...site, seo: { indexing: 'noindex' as const } };

t.test('sitemap', async (t) => {
  t.test('should list indexable pages by path with absolute URLs', async (t) => {
    t.equal(
      sitemapXml(pages, site),
      '<?xml version="1.0" encoding="UTF-8"?>\n'
        + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + '<url><loc>https://acme.docs.example/docs/</loc></url>\n'
        + '<url><loc>https://acme.docs.example/docs/guides/install</loc></url>\n'
        + '</urlset>\n',
    );
  });

  t.test('should be an empty urlset when the site is noindex', async (t) => {
    t.equal(sitemapXml(pages, noindex), '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n');
  });

  t.test('should allow crawling and name the sitemap by default', async (t) => {
    t.equal(robotsTxt(site), 'User-agent: *\nAllow: /docs/\n\nSitemap: https://acme.docs.example/docs/sitemap.xml\n');
    t.equal(robotsTxt({ ...site, basePath: '' }), 'User-agent: *\nAllow: /\n\nSitemap: https://acme.docs.example/sitemap.xml\n');
  });

  t.test('should disallow everything when the site is noindex', async (t) => {
    t.equal(robotsTxt({ ...noindex, basePath: '' }), 'User-agent: *\nDisallow: /\n');
    t.equal(robotsTxt(noindex), 'User-agent: *\nDisallow: /docs/\n');
  });
});

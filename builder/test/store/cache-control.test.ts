import t from 'tap';
import { cacheControlFor, IMMUTABLE, PRIVATE, REVALIDATE, SHORT } from '../../src/store/content-type.ts';

t.test('cacheControlFor', async (t) => {
  t.test('should revalidate every file at a stable URL on each use', async (t) => {
    t.equal(REVALIDATE, 'public, max-age=0, must-revalidate');
    t.equal(SHORT, REVALIDATE, 'the old name means the new policy');
    const stable = [
      'index.html', 'guides/install/index.html', '404.html', 'guides/install.md', 'index.md', 'llms.txt', 'llms-full.txt',
      'rss.xml', 'changelog/rss.xml', 'sitemap.xml', 'robots.txt', '_redirects.json', '_headers.json',
      '_pagefind/shards.json', '_pagefind/overlay.json', '_pagefind/4-1/pagefind-entry.json', '_pagefind/4-1/pagefind.js',
      '_pagefind/4-1/wasm.en.pagefind', 'images/logo.svg', 'openapi.json',
    ];
    t.same(stable.map((k) => [k, cacheControlFor(k)]), stable.map((k) => [k, 'public, max-age=0, must-revalidate']));
  });

  t.test('should keep content-hashed files immutable for a year', async (t) => {
    t.equal(IMMUTABLE, 'public, max-age=31536000, immutable');
    const hashed = ['_folio/client-1a2b3c.js', '_folio/theme-9f8e7d.css', '_pagefind/4-1/fragment/en_1a2b3c.pf_fragment', '_pagefind/4-1/index/en_1a2b3c.pf_index', '_pagefind/overlay-0123456789abcdef/filter/en_1.pf_filter'];
    t.same(hashed.map((k) => [k, cacheControlFor(k)]), hashed.map((k) => [k, 'public, max-age=31536000, immutable']));
  });

  t.test('should never let anyone store the builder state', async (t) => {
    t.equal(cacheControlFor('_folio/cache/manifest.json.gz'), PRIVATE);
    t.equal(PRIVATE, 'no-store');
  });
});

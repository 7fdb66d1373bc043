import { createHash } from 'node:crypto';
import t from 'tap';
import { createSharedHighlighter as createTestHighlighter } from '../../src/compile/highlighter.ts';
import { renderCodeBlock } from '../../src/compile/code-block.ts';
import { parseCodeMeta } from '../../src/compile/code-meta.ts';
import { searchFiltersOf } from '../../src/nav/dimensions.ts';
import { fnv1a, planShards, searchDocument, shardBase, shardCount, shardOf } from '../../src/outputs/search-shards.ts';

const pages = Array.from({ length: 1000 }, (_, i) => ({ urlPath: `/section-${i % 7}/page-${i}`, title: `Page ${i}`, bodyHtml: `<p>Body ${i}</p>` }));

t.test('search shards', async (t) => {
  t.test('should hash with 32-bit FNV-1a (reference vectors)', async (t) => {
    t.same([fnv1a(''), fnv1a('a'), fnv1a('foobar')], [0x811c9dc5, 0xe40c292c, 0xbf9cf968]);
  });

  t.test('should grow the shard count in powers of two, at most 400 pages per shard on average', async (t) => {
    t.same([0, 1, 400, 401, 800, 801, 1000, 5000, 10000].map((n) => shardCount(n)), [1, 1, 1, 2, 2, 4, 4, 16, 32]);
  });

  t.test('should assign a page to the same shard on every run', async (t) => {
    t.same(['/', '/guides/install', '/api/auth'].map((p) => shardOf(p, 4)), [fnv1a('/') % 4, fnv1a('/guides/install') % 4, fnv1a('/api/auth') % 4]);
    t.same(['/', '/guides/install', '/api/auth'].map((p) => shardOf(p, 4)), [2, 3, 1], 'values checked against an independent FNV-1a');
  });

  t.test('should spread 1,000 pages over 4 shards named by count and index', async (t) => {
    const plans = planShards(pages);
    t.same(plans.map((p) => p.name), ['4-0', '4-1', '4-2', '4-3']);
    t.equal(plans.reduce((n, p) => n + p.pages.length, 0), 1000);
    for (const plan of plans) t.ok(plan.pages.length > 150 && plan.pages.length < 350, `${plan.name} holds ${plan.pages.length} pages`);
    t.equal(shardBase('4-2'), '/_pagefind/4-2/');
  });

  t.test('should change only the edited page\'s shard fingerprint', async (t) => {
    const before = planShards(pages);
    const edited = pages.map((p, i) => (i === 123 ? { ...p, bodyHtml: '<p>changed</p>' } : p));
    const after = planShards(edited);
    const changed = after.filter((plan, i) => plan.fingerprint !== before[i].fingerprint).map((plan) => plan.name);
    t.same(changed, [`4-${shardOf(pages[123].urlPath, 4)}`]);
    t.same(planShards([...pages].reverse()).map((p) => p.fingerprint), before.map((p) => p.fingerprint), 'input order does not matter');
  });

  t.test('should fingerprint a shard as the sha256 of its base path and its pages\' fields, each ended by a NUL', async (t) => {
    const shardPages = [{ urlPath: '/b/é', searchHash: 'h2' }, { urlPath: '/a/\u{1F600}', searchHash: 'h1' }];
    const [plan] = planShards(shardPages, '/docs');
    t.equal(plan.fingerprint, createHash('sha256').update('/docs\0/a/\u{1F600}\0h1\0/b/é\0h2\0').digest('hex'), 'pages in URL order');
  });

  t.test('should index a minimal document: escaped title as h1 and meta, then the body', async (t) => {
    t.equal(
      searchDocument({ urlPath: '/x', title: 'A & <B>', bodyHtml: '<p>Hi</p>' }),
      '<!doctype html><html lang="en"><head><title>A &amp; &lt;B&gt;</title></head><body><main data-pagefind-body><h1 data-pagefind-meta="title">A &amp; &lt;B&gt;</h1><p>Hi</p></main></body></html>',
    );
  });

  t.test('should search hidden pages and hidden groups only when the site indexes hidden pages (seo.indexing all)', async (t) => {
    const nav = [{ group: 'Docs', pages: ['a'] }, { group: 'Internal', hidden: true, pages: ['b'] }];
    const sources = [{ sourcePath: 'a.mdx', urlPath: '/a' }, { sourcePath: 'b.mdx', urlPath: '/b' }];
    const hidden = { urlPath: '/a', title: 'A', bodyHtml: '<p>Secret text</p>', frontmatter: { hidden: true } };
    const inGroup = { urlPath: '/b', title: 'B', bodyHtml: '<p>Group text</p>' };
    const navigable = searchFiltersOf(nav, sources, '');
    t.notMatch(searchDocument(hidden, navigable), 'Secret text');
    t.notMatch(searchDocument(inGroup, navigable), 'Group text');
    const all = searchFiltersOf(nav, sources, '', true);
    t.match(searchDocument(hidden, all), 'Secret text');
    t.match(searchDocument(inGroup, all), 'Group text');
    t.notMatch(searchDocument({ ...hidden, frontmatter: { hidden: true, noindex: true } }, all), 'Secret text', 'noindex: true still keeps it out');
    t.not(searchDocument(inGroup, all), searchDocument({ ...inGroup, bodyHtml: '<p>Group text</p>' }, searchFiltersOf([{ group: 'Docs', pages: ['a', 'b'] }], sources, '')), 'the setting is part of the document, so turning it on indexes the pages again');
  });

  t.test('should index code blocks as their title and raw code, and drop heading anchors', async (t) => {
    const shared = createTestHighlighter();
    const block = renderCodeBlock(await shared, 'if (a < b) run();', 'js', await (await shared).ensureLanguage('js'), parseCodeMeta('Run it lines'));
    const heading = '<h2 id="use">Use<a class="heading-anchor" href="#use" aria-hidden="true" tabindex="-1">#</a></h2>';
    const doc = searchDocument({ urlPath: '/x', title: 'T', bodyHtml: `${heading}${block}<p>after</p>${block}` });
    t.equal(doc.slice(doc.indexOf('</h1>') + 5), '<h2 id="use">Use</h2><p>Run it</p><pre>if (a &lt; b) run();</pre><p>after</p><p>Run it</p><pre>if (a &lt; b) run();</pre></main></body></html>');
    (await shared).highlighter.dispose();
  });
});

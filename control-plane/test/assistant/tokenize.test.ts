import t from 'tap';
import { buildIndex, conversationQuery, IndexMemory, type Bm25Index } from '../../src/assistant/bm25-index.ts';
import { stem, tokenize } from '../../src/assistant/tokenize.ts';

t.test('tokenize and bm25-index', async (t) => {
  t.test('should drop stop words, stem inflections and split identifiers', async (t) => {
    t.same(tokenize('How do I launch rockets?'), ['launch', 'rocket']);
    t.same(['launches', 'launched', 'launching', 'policies', 'classes'].map(stem), ['launch', 'launch', 'launch', 'polici', 'class']);
    t.same(tokenize('dryRun Retry-After'), ['dryrun', 'dry', 'run', 'retri', 'after']);
    t.same(tokenize("don't v2.1"), ['don', 'v2', '1']);
  });

  const site = [
    { url: 'https://a.example/', path: '/', title: 'Home', description: '', markdown: '# Home\n\nOur limits are generous. Limits apply to keys.' },
    { url: 'https://a.example/limits', path: '/limits', title: 'Rate limits', description: '', markdown: '# Rate limits\n\n## Per key\n\nEach key has 600 requests per minute.\n\n## Raising\n\nAsk support to raise your limit.' },
  ];
  const ranked = (index: Bm25Index, question: string, perPage?: number) => index.search(conversationQuery([question]), 10, perPage).map((h) => [index.passages[h.passage].page, index.passages[h.passage].heading ?? '', h.score]);

  t.test('should rank by BM25 with heading and title weight, at most perPage per page', async (t) => {
    const index = await buildIndex(site);
    t.same(index.passages.map((p) => [p.page, p.heading, p.text]), [
      [0, undefined, 'Our limits are generous. Limits apply to keys.'],
      [1, 'Per key', 'Each key has 600 requests per minute.'],
      [1, 'Raising', 'Ask support to raise your limit.'],
    ]);
    t.same(index.search(conversationQuery(['rate limit per key']), 10).map((h) => h.passage), [1, 2, 0]);
    t.same(index.search(conversationQuery(['rate limit per key']), 10, 1).map((h) => h.passage), [1, 0]);
    t.same(index.search(conversationQuery(['quokka']), 10), []);
  });

  t.test('should reuse the pages unchanged since the last build and rank as a fresh index does', async (t) => {
    const memory = new IndexMemory();
    await buildIndex(site, memory);
    t.equal(memory.analysed, 2);
    const home = memory.pages.get('https://a.example/');
    const edited = [
      { ...site[0], markdown: `${site[0].markdown}` },
      { ...site[1], markdown: site[1].markdown.replace('600 requests', '900 quokkas') },
      { url: 'https://a.example/new', path: '/new', title: 'Quokka care', description: '', markdown: '# Quokka care\n\nFeed them leaves.' },
    ];
    const again = await buildIndex(edited, memory);
    t.equal(memory.analysed, 4, 'the edited page and the new one analysed, the home page reused');
    t.equal(memory.pages.get('https://a.example/'), home, 'the same analysis, kept');
    const fresh = await buildIndex(edited);
    for (const q of ['quokka per key', 'rate limit', 'generous keys', 'leaves']) t.same(ranked(again, q), ranked(fresh, q), q);
    t.same(ranked(again, 'quokka').map(([page, heading]) => [page, heading]), [[2, ''], [1, 'Per key']]);
    await buildIndex([edited[2]], memory);
    t.same([...memory.pages.keys()], ['https://a.example/new'], 'pages no longer published are forgotten');
  });

  t.test('should stop at its next yield once aborted, keeping the pages it analysed', async (t) => {
    const many = Array.from({ length: 4000 }, (_, i) => ({
      url: `https://a.example/p${i}`, path: `/p${i}`, title: `Page ${i}`, description: '',
      markdown: `# Page ${i}\n\n${'Words about retries, limits and keys for page number '.repeat(20)}${i}.\n\n## Details\n\nMore text ${i}.`,
    }));
    const memory = new IndexMemory();
    const stop = new AbortController();
    setImmediate(() => stop.abort());
    await t.rejects(buildIndex(many, memory, stop.signal), { name: 'AbortError' });
    t.ok(memory.analysed > 0 && memory.analysed < many.length, `${memory.analysed} of ${many.length} pages analysed before it stopped`);
    const done = memory.analysed;
    const index = await buildIndex(many, memory);
    t.equal(memory.analysed, many.length, `the next build analysed the other ${many.length - done}`);
    t.same(ranked(index, 'page number 3999 details'), ranked(await buildIndex(many), 'page number 3999 details'));
  });
});

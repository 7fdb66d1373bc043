import t from 'tap';
import { buildIndex, conversationQuery } from '../../src/assistant/bm25-index.ts';
import { stem, tokenize } from '../../src/assistant/tokenize.ts';

t.test('tokenize and bm25-index', async (t) => {
  t.test('should drop stop words, stem inflections and split identifiers', async (t) => {
    t.same(tokenize('How do I launch rockets?'), ['launch', 'rocket']);
    t.same(['launches', 'launched', 'launching', 'policies', 'classes'].map(stem), ['launch', 'launch', 'launch', 'polici', 'class']);
    t.same(tokenize('dryRun Retry-After'), ['dryrun', 'dry', 'run', 'retri', 'after']);
    t.same(tokenize("don't v2.1"), ['don', 'v2', '1']);
  });

  t.test('should rank by BM25 with heading and title weight, at most perPage per page', async (t) => {
    const pages = [
      { url: 'https://a.example/', path: '/', title: 'Home', description: '', markdown: '' },
      { url: 'https://a.example/limits', path: '/limits', title: 'Rate limits', description: '', markdown: '' },
    ];
    const passages = [
      { page: 0, occurrence: 0, text: 'Our limits are generous. Limits apply to keys.' },
      { page: 1, occurrence: 0, heading: 'Per key', text: 'Each key has 600 requests per minute.' },
      { page: 1, occurrence: 0, heading: 'Raising', text: 'Ask support to raise your limit.' },
    ];
    const index = await buildIndex(pages, passages);
    t.same(index.search(conversationQuery(['rate limit per key']), 10).map((h) => h.passage), [1, 2, 0]);
    t.same(index.search(conversationQuery(['rate limit per key']), 10, 1).map((h) => h.passage), [1, 0]);
    t.same(index.search(conversationQuery(['quokka']), 10), []);
  });
});

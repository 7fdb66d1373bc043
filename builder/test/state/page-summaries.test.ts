import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { searchDocument } from '../../src/outputs/search-shards.ts';
import { failureHolds, readSummaries, relocate, summarize, summaryHolds, SUMMARIES_KEY, writeSummaries, type FailureSummary } from '../../src/state/page-summaries.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { CompiledPage } from '../../src/types.ts';
import { tempDir } from '../helpers/git-repo.ts';

const page: CompiledPage = {
  sourcePath: 'docs/guides/install.mdx', urlPath: '/guides/install', title: 'Install', description: 'Get it running', order: 2,
  frontmatter: { title: 'Install', order: 2 }, bodyHtml: '<p>Run it.</p>', markdown: '# Install\n\nRun it.\n',
  toc: [{ depth: 2, id: 'run', text: 'Run' }], updates: [], rss: false, searchText: 'Run it.',
};
const docHash = createHash('sha256').update(searchDocument(page)).digest('hex');

t.test('page summaries', async (t) => {
  t.test('should keep what site-wide outputs read and drop the body, toc, search text, Markdown and frontmatter', async (t) => {
    t.same(summarize(page, { 'snippets/a.mdx': 'abc' }), {
      sourcePath: 'docs/guides/install.mdx', urlPath: '/guides/install', title: 'Install', description: 'Get it running', order: 2,
      updates: [], rss: false, searchHash: docHash, deps: { 'snippets/a.mdx': 'abc' },
    });
  });

  t.test('should hold only while imports keep their blobs, and only at its own path when it imports', async (t) => {
    const plain = summarize(page, {});
    const importing = summarize(page, { 'snippets/a.mdx': 'abc' });
    t.equal(summaryHolds(plain, 'docs/guides/setup.mdx', new Map()), true, 'a rename without imports is a hit');
    t.equal(summaryHolds(importing, 'docs/guides/install.mdx', new Map([['snippets/a.mdx', 'abc']])), true);
    t.equal(summaryHolds(importing, 'docs/guides/install.mdx', new Map([['snippets/a.mdx', 'def']])), false, 'snippet changed');
    t.equal(summaryHolds(importing, 'docs/guides/setup.mdx', new Map([['snippets/a.mdx', 'abc']])), false, 'relative imports resolve elsewhere');
  });

  t.test('should re-derive the URL of a page found under another path', async (t) => {
    t.same(relocate(summarize(page, {}), 'docs/start/setup.mdx', 'docs/').urlPath, '/start/setup');
    t.equal(relocate(page, page.sourcePath, 'docs/'), page);
  });

  t.test('should read back what it wrote, and nothing from a missing or unreadable object', async (t) => {
    const store = createLocalDirStore(tempDir());
    t.same(await readSummaries(store), { pages: new Map(), failures: new Map(), found: false });
    const map = new Map([['k2', summarize(page, {})], ['k1', summarize({ ...page, title: 'Other' }, {})]]);
    const hash = await writeSummaries(store, map, new Map());
    const bytes = gunzipSync((await store.get(SUMMARIES_KEY))!);
    t.equal(hash, createHash('sha256').update(bytes).digest('hex'));
    t.same(Object.keys(JSON.parse(bytes.toString())), ['version', 'pages'], 'no failures key without failures');
    const read = await readSummaries(store);
    t.same({ ...read, stored: undefined }, { pages: map, failures: new Map(), found: true, stored: undefined });
    t.equal(read.pages, map, 'read back in the process that wrote it: the map written, not one made again');
    t.equal(await writeSummaries(store, new Map([...map].reverse()), new Map(), { stored: read.stored, hash }), hash, 'equal summaries give equal bytes, in any order');
    await store.put(SUMMARIES_KEY, Buffer.from('{"version":1,'));
    t.same(await readSummaries(store), { pages: new Map(), failures: new Map(), found: false });
  });

  t.test('should keep failures by path, sorted, and read them back', async (t) => {
    const store = createLocalDirStore(tempDir());
    const failures = new Map<string, FailureSummary>([
      ['docs/b.mdx', { cacheKey: 'kb', failure: { sourcePath: 'docs/b.mdx', message: 'Unexpected end of file', line: 3, column: 1 }, deps: {} }],
      ['docs/a.mdx', { cacheKey: 'ka', failure: { sourcePath: 'docs/a.mdx', message: 'Oops' }, deps: { 'snippets/x.mdx': '' } }],
    ]);
    await writeSummaries(store, new Map(), failures);
    t.same(Object.keys(JSON.parse(gunzipSync((await store.get(SUMMARIES_KEY))!).toString()).failures), ['docs/a.mdx', 'docs/b.mdx']);
    const read = await readSummaries(store);
    t.same({ ...read, stored: undefined }, { pages: new Map(), failures, found: true, stored: undefined });
  });

  t.test('should reuse a failure only for the same source and while its imports are unchanged or still missing', async (t) => {
    const failure = { cacheKey: 'k', failure: { sourcePath: 'docs/a.mdx', message: 'Oops' }, deps: { 'snippets/x.mdx': 'abc', 'snippets/gone.mdx': '' } };
    const blobs = new Map([['snippets/x.mdx', 'abc']]);
    t.equal(failureHolds(failure, 'k', 'docs/a.mdx', blobs), true);
    t.equal(failureHolds(failure, 'k2', 'docs/a.mdx', blobs), false, 'the page changed');
    t.equal(failureHolds(failure, 'k', 'docs/a.mdx', new Map([['snippets/x.mdx', 'def']])), false, 'an import changed');
    t.equal(failureHolds(failure, 'k', 'docs/a.mdx', new Map([...blobs, ['snippets/gone.mdx', 'new']])), false, 'a missing import appeared');
  });
});

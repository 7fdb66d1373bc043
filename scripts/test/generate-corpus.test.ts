import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { build } from '@folio/builder/internal/build.ts';
import { closePagefind } from '@folio/builder/internal/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '@folio/builder/internal/store/local-dir-store.ts';
import { components } from '@folio/site-template/components/index.ts';
import { componentNames, corpusStats, fenceTags } from '../src/corpus/corpus-stats.ts';
import { corpusPage, corpusPages, editedSource, editMarker, generateCorpus } from '../src/generate-corpus.ts';

t.teardown(closePagefind);

const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'folio-corpus-test-'));

t.test('generate-corpus', async (t) => {
  const thousand = corpusPages(1000);
  const stats = corpusStats(thousand);

  t.test('should make the same pages for a seed, whatever the corpus size', async (t) => {
    t.same(corpusPages(50), thousand.slice(0, 50));
    t.not(corpusPage(7, 2).source, corpusPage(7).source, 'another seed, another page');
  });

  t.test('should size pages like the measured corpus: median 3.7 KB, p90 11 KB, a ~160 KB changelog', async (t) => {
    t.ok(stats.bytes.median > 3300 && stats.bytes.median < 4100, `median ${stats.bytes.median}`);
    t.ok(stats.bytes.p90 > 9500 && stats.bytes.p90 < 12_500, `p90 ${stats.bytes.p90}`);
    const changelog = thousand.find((f) => f.path === 'docs/changelog.mdx')!;
    t.ok(Math.abs(Buffer.byteLength(changelog.source) - 160_000) < 5000, `changelog ${changelog.source.length} bytes`);
    t.ok(changelog.source.match(/<Update label="[^"]+" description="[^"]+"/g)!.length > 300, 'hundreds of updates');
  });

  t.test('should write ~2.5 code fences per page, at most 36, json the most frequent', async (t) => {
    t.ok(stats.fences.perPage > 2.2 && stats.fences.perPage < 2.8, `per page ${stats.fences.perPage}`);
    t.ok(stats.fences.max <= 36, `max ${stats.fences.max}`);
    t.same(stats.languages.slice(0, 3).map(([lang]) => lang), ['json', 'mdx', 'bash']);
    for (const lang of ['(none)', 'text', 'yaml', 'mermaid', 'graphql', 'http', 'output']) t.ok(stats.languages.some(([l]) => l === lang), lang);
  });

  t.test('should use only components the site template provides, and callouts on about 45 pages in 270', async (t) => {
    const provided = new Set(Object.keys(components));
    t.same(stats.components.map(([name]) => name).filter((name) => !provided.has(name)), []);
    const callouts = thousand.filter((f) => ['Note', 'Warning', 'Info', 'Tip', 'Check'].some((c) => componentNames(f.source).has(c))).length;
    t.ok(Math.abs(callouts / 1000 - 45 / 270) < 0.04, `${callouts} pages of 1000`);
  });

  t.test('should give every page frontmatter and put pages 3-4 folders deep', async (t) => {
    t.same(thousand.filter((f) => !/^---\ntitle: "[^"]+"\ndescription: "[^"]+"\n/.test(f.source)).map((f) => f.path), []);
    const depths = new Set(thousand.slice(2).map((f) => f.path.split('/').length - 1));
    t.same([...depths].sort(), [3, 4]);
  });

  t.test('should link only to pages of the corpus, as authors do', async (t) => {
    const urls = new Set(thousand.map((f) => f.path.replace(/^docs\//, '/').replace(/(^|\/)index\.mdx$/, '$1').replace(/\.mdx$/, '')));
    // Code samples may show links (an MDX sample's Card): only the page's own markup counts.
    const prose = (source: string) => source.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
    const links = thousand.flatMap((f) => [...prose(f.source).matchAll(/\]\((\/[^)]*)\)|href="(\/[^"]*)"/g)].map((m) => m[1] ?? m[2]));
    t.ok(links.length > 1000, `${links.length} links`);
    t.same(links.filter((l) => !urls.has(l)), []);
  });

  t.test('should count fences the way Markdown reads them', async (t) => {
    t.same(fenceTags('```json title="a"\n{}\n```\n\n````md\n```js\nx\n```\n````\n\n~~~\nplain\n~~~\n'), ['json', 'md', '']);
  });

  t.test('should edit a page by adding a paragraph at its end', async (t) => {
    t.equal(editedSource('# A\n\nText.\n\n', 2), `# A\n\nText.\n\n${editMarker(2)}\n`);
    t.equal(editedSource(editedSource('# A\n', 1), 2), `# A\n\n${editMarker(2)}\n`, 'in place of the previous edit');
  });

  t.test('should build a 200-page corpus without failed pages or broken links', async (t) => {
    const dir = temp();
    const written = generateCorpus(dir, 200);
    t.equal(written.pages, 200);
    const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(temp()), siteUrl: 'https://corpus.example' });
    t.same({ total: res.pagesTotal, failed: res.pagesFailed, errors: res.errors }, { total: 200, failed: 0, errors: [] });
    t.same(res.warnings ?? [], []);
  });
});

import t from 'tap';
import { isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import type { CompiledPage } from '../../src/types.ts';

const page = (source: string): CompileInput => ({ sourcePath: 'page.mdx', source, contentRoot: '' });

t.test('Mintlify page frontmatter', async (t) => {
  const compiler = await createCompiler({ workers: 0 });
  t.teardown(() => compiler.close());
  const ok = async (frontmatter: string, body = 'Text'): Promise<CompiledPage> => {
    const result = (await compiler.compile([page(`---\n${frontmatter}\n---\n\n${body}\n`)], { readFile: async () => undefined }))[0];
    if (isPageFailure(result)) throw new Error(`unexpected failure: ${result.message}`);
    return result;
  };

  t.test('should take the layout modes Mintlify documents and leave others at the default', async (t) => {
    for (const mode of ['wide', 'center', 'frame', 'custom'] as const) t.equal((await ok(`mode: ${mode}`)).mode, mode);
    t.equal((await ok('mode: default')).mode, undefined);
    t.equal((await ok('mode: assistant')).mode, undefined, 'a mode we do not lay out renders as the default page');
    t.equal((await ok('mode: 3')).mode, undefined);
  });

  t.test('should keep noindex pages out of indexing, and a page seo setting wins', async (t) => {
    t.same((await ok('noindex: true')).seo, { indexing: 'noindex' });
    t.same(await ok('hidden: true').then((p) => [p.hidden, p.seo]), [true, undefined], 'hidden pages are kept out by the outputs, as docs.json seo.indexing says');
    t.equal((await ok('noindex: false')).seo, undefined);
    t.same((await ok('noindex: true\nseo:\n  indexing: default')).seo, { indexing: 'default' });
  });

  t.test('should turn og: and twitter: keys into meta tags', async (t) => {
    t.same((await ok('"og:image": /social.png\n"twitter:title": Hello\n"og:bad": [1]')).seo, { metatags: { 'og:image': '/social.png', 'twitter:title': 'Hello' } });
  });

  t.test('should search the keywords without showing them', async (t) => {
    const result = await ok('keywords: ["setup", "getting started"]');
    t.equal(result.searchText, 'Text\nsetup getting started');
    t.notMatch(result.bodyHtml, /setup/);
    t.equal((await ok('keywords: one, two')).searchText, 'Text\none two');
  });

  t.test('should read the other documented keys without failing the page', async (t) => {
    const result = await ok('title: Guide\nsidebarTitle: Short\nicon: rocket\niconType: solid\ntag: NEW\ndeprecated: true\nurl: https://example.com\nhideFooterPagination: true');
    t.equal(result.sidebarTitle, 'Short');
    t.equal(result.icon, 'rocket');
    t.match(result.frontmatter, { tag: 'NEW', deprecated: true, url: 'https://example.com', iconType: 'solid' });
  });
});

import t from 'tap';
import { exportOwner, LinkChecker, resolveLink, type LinkSource, type LinkTargets } from '../../src/links/link-check.ts';
import { feedKey, markdownKey } from '../../src/outputs/site-paths.ts';

const at = (href: string, line = 1) => ({ href, line, column: 1 });

t.test('link-check', async (t) => {
  t.test('should resolve links the way a browser does against the clean URL', async (t) => {
    t.same(resolveLink('./install', '/guides/quickstart', ''), { path: '/guides/install', hash: '' });
    t.same(resolveLink('../api/auth?x=1#token-id', '/guides/quickstart', ''), { path: '/api/auth', hash: 'token-id' });
    t.same(resolveLink('#caf%C3%A9', '/guides/quickstart', ''), { path: '/guides/quickstart', hash: 'café' });
    t.same(resolveLink('/guides/install/', '/', ''), { path: '/guides/install', hash: '' });
    t.same(resolveLink('/docs/guides/install', '/', '/docs'), { path: '/guides/install', hash: '' });
    t.same(resolveLink('/docs', '/a', '/docs'), { path: '/', hash: '' });
  });

  t.test('should read a page\'s source name as the page, as Mintlify serves it', async (t) => {
    // [href, written on, base path] → the page and fragment it names
    const cases: [string, string, string, string, string][] = [
      ['/assistant/index', '/a', '', '/assistant', ''], ['/index#top', '/a', '', '/', 'top'], ['./chat.mdx', '/guides/start', '', '/guides/chat', ''],
      ['../api/index.mdx#auth', '/guides/start', '', '/api', 'auth'], ['/docs/assistant/index', '/a', '/docs', '/assistant', ''],
    ];
    for (const [href, on, base, path, hash] of cases) t.same(resolveLink(href, on, base), { path, hash }, href);
  });

  t.test('should count a path a redirect pattern matches as reached', async (t) => {
    const report = new LinkChecker().check([{ sourcePath: 'a.mdx', urlPath: '/a', key: 'k', links: [at('/beta/x/y'), at('/betax')] }],
      { pages: new Map([['/a', new Set<string>()]]), files: new Set(['/beta/:slug*']), redirectPatterns: ['/beta/:slug*'], basePath: '' });
    t.same(report.broken.map((b) => b.href), ['/betax']);
  });

  t.test('should leave external links, other schemes and paths outside the base path alone', async (t) => {
    for (const href of ['https://example.com/x', 'mailto:a@example.com', 'tel:+1555', '//cdn.example.com/a.js', 'javascript:void(0)', '', '  ']) {
      t.equal(resolveLink(href, '/a', ''), undefined, href);
    }
    t.equal(resolveLink('/blog/post', '/a', '/docs'), undefined);
  });

  const targets = (overrides: Partial<LinkTargets> = {}): LinkTargets => ({
    pages: new Map<string, Set<string> | undefined>([['/a', new Set(['top'])], ['/b', new Set(['x', 'y'])], ['/c', new Set()]]),
    files: new Set(['/logo.svg', '/llms.txt', '/old']),
    basePath: '',
    ...overrides,
  });
  const pages = (aKey = 'a1'): LinkSource[] => [
    { sourcePath: 'docs/a.mdx', urlPath: '/a', key: aKey, links: [at('/b#x', 3), at('/c', 4), at('/logo.svg', 5)] },
    { sourcePath: 'docs/b.mdx', urlPath: '/b', key: 'b1', links: [at('/a#top'), at('/old#anything', 2)] },
    { sourcePath: 'docs/c.mdx', urlPath: '/c', key: 'c1', links: [at('https://example.com')] },
  ];

  t.test('should report missing pages and anchors with their positions', async (t) => {
    const report = new LinkChecker().check([
      { sourcePath: 'docs/a.mdx', urlPath: '/a', key: 'k', links: [{ href: '/nope', line: 7, column: 3 }, { href: '/b#z', line: 9, column: 12 }, { href: '#top', line: 10, column: 1 }] },
    ], targets());
    t.same(report, {
      checked: 3,
      broken: [
        { file: 'docs/a.mdx', line: 7, column: 3, href: '/nope', message: 'Unexpected link to /nope; expected a page, a file of the site or a redirect source' },
        { file: 'docs/a.mdx', line: 9, column: 12, href: '/b#z', message: 'Unexpected anchor #z; expected the id of a heading or element on /b' },
      ],
    });
  });

  t.test('should accept an anchor written with or without the id\'s leading _, @ or $, as Mintlify\'s links are', async (t) => {
    const report = new LinkChecker().check([{ sourcePath: 'docs/a.mdx', urlPath: '/a', key: 'k', links: [at('/m#meta'), at('/m#_meta'), at('/m#tool'), at('/m#@tool'), at('/m#ref-resolution'), at('/m#eta'), at('/m#_tool')] }],
      targets({ pages: new Map([['/a', new Set<string>()], ['/m', new Set(['_meta', '@tool', '$ref-resolution'])]]) }));
    t.same(report.broken.map((b) => b.href), ['/m#eta', '/m#_tool'], 'only fragments that name no id in either form');
  });

  t.test('should not check the anchors of a page whose ids are unknown', async (t) => {
    const report = new LinkChecker().check([{ sourcePath: 'docs/a.mdx', urlPath: '/a', key: 'k', links: [at('/b#z')] }], targets({ pages: new Map([['/b', undefined]]) }));
    t.same(report.broken, []);
  });

  t.test('should re-check only the edited page, and the pages linking to a page whose ids changed', async (t) => {
    const checker = new LinkChecker();
    t.equal(checker.check(pages(), targets()).checked, 6, 'first check: every link');
    t.equal(checker.check(pages(), targets()).checked, 0, 'nothing changed');
    t.equal(checker.check(pages('a2'), targets()).checked, 3, 'a edited: its 3 links');
    const withoutX = targets({ pages: new Map([['/a', new Set(['top'])], ['/b', new Set(['y'])], ['/c', new Set()]]) });
    const report = checker.check(pages('a2'), withoutX);
    t.equal(report.checked, 3, "b's ids changed: a, which links to b, is re-checked; c is not");
    t.same(report.broken.map((b) => `${b.file}:${b.line} ${b.href}`), ['docs/a.mdx:3 /b#x']);
    const withoutC = targets({ pages: new Map([['/a', new Set(['top'])], ['/b', new Set(['y'])]]) });
    t.same(checker.check(pages('a2').slice(0, 2), withoutC).broken.map((b) => b.href), ['/b#x', '/c'], 'c removed: the link to it breaks');
    t.equal(checker.check(pages('a2').slice(0, 2), targets({ ...withoutC, files: new Set(['/llms.txt']) })).checked, 5, 'files changed: everything');
  });

  t.test('should let links reach each published page\'s own exports without listing them', async (t) => {
    for (const urlPath of ['/', '/a', '/guides/install', '/index-of-things']) {
      t.equal(exportOwner(`/${markdownKey(urlPath)}`), urlPath, `${urlPath}: Markdown export`);
      t.equal(exportOwner(`/${feedKey(urlPath)}`), urlPath, `${urlPath}: feed`);
    }
    for (const path of ['/rss.xml', '/.md', '/llms.txt', '/a', '/a.mdx', '/a/feed.xml']) t.equal(exportOwner(path), undefined, path);

    const withRoot = targets({ pages: new Map<string, Set<string> | undefined>([['/', new Set()], ['/a', new Set(['top'])], ['/b', new Set(['x'])], ['/c', undefined], ['/d', undefined]]), unpublished: new Set(['/d']) });
    const linking = (key: string): LinkSource[] => [{ sourcePath: 'docs/e.mdx', urlPath: '/e', key, links: [
      at('/index.md'), at('/index/rss.xml', 2), at('/a.md', 3), at('../b/rss.xml', 4), at('/c.md', 5), at('/d.md', 6), at('/d/rss.xml', 7), at('/nope.md', 8), at('/a.md#top', 9),
    ] }];
    const checker = new LinkChecker();
    const first = checker.check(linking('e1'), withRoot);
    t.same(first.broken.map((b) => `${b.line} ${b.href}`), ['6 /d.md', '7 /d/rss.xml', '8 /nope.md'], 'a failed page with a published version keeps its exports; one never published has none');
    t.match(first.broken[0].message, 'Unexpected link to /d.md; expected a page, a file of the site or a redirect source');
    const withoutA = targets({ pages: new Map<string, Set<string> | undefined>([['/', new Set()], ['/b', new Set(['x'])], ['/c', undefined], ['/d', new Set()]]) });
    const again = checker.check(linking('e1'), withoutA);
    t.equal(again.checked, 9, 'a page linking to an export is checked again when that page goes or comes');
    t.same(again.broken.map((b) => b.href), ['/a.md', '/nope.md', '/a.md#top'], 'a removed: links to its export break; d published: its export answers');
  });

  t.test('should forget the broken links of a page fixed or removed, and keep those of pages not re-checked', async (t) => {
    const checker = new LinkChecker();
    const broken = (list: LinkSource[]) => checker.check(list, targets()).broken.map((b) => `${b.file} ${b.href}`);
    const a = (key: string, href: string): LinkSource => ({ sourcePath: 'docs/a.mdx', urlPath: '/a', key, links: [at(href)] });
    const b: LinkSource = { sourcePath: 'docs/b.mdx', urlPath: '/b', key: 'b1', links: [at('/gone')] };
    const c: LinkSource = { sourcePath: 'docs/c.mdx', urlPath: '/c', key: 'c1', links: [at('/nowhere')] };
    t.same(broken([a('a1', '/missing'), b, c]), ['docs/a.mdx /missing', 'docs/b.mdx /gone', 'docs/c.mdx /nowhere'], 'sorted by file');
    t.same(broken([a('a2', '/b'), b, c]), ['docs/b.mdx /gone', 'docs/c.mdx /nowhere'], 'a fixed; b and c reused as they were');
    t.same(broken([a('a2', '/b'), c]), ['docs/c.mdx /nowhere'], 'b removed');
    t.same(broken([a('a3', '/nope'), b, c]), ['docs/a.mdx /nope', 'docs/b.mdx /gone', 'docs/c.mdx /nowhere'], 'b back, checked again');
  });

  t.test('should judge a link written on many pages once, and alike from each', async (t) => {
    const list: LinkSource[] = Array.from({ length: 50 }, (_, i) => ({ sourcePath: `docs/p${i}.mdx`, urlPath: `/p${i}`, key: `k${i}`, links: [at('/b#x'), at('/b#nope', 2), at('/nowhere', 3)] }));
    const report = new LinkChecker().check(list, targets());
    t.equal(report.checked, 150);
    t.equal(report.broken.length, 100, 'two broken links per page');
    t.same(new Set(report.broken.map((b) => b.message)).size, 2, 'the same two messages');
  });
});

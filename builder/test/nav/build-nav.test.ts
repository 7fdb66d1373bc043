import t from 'tap';
import { parseConfig } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';
import { buildNav, titleFromFolder, type NavPage } from '../../src/nav/build-nav.ts';

const page = (sourcePath: string, urlPath: string, title: string, extra: Partial<NavPage> = {}): NavPage => ({ sourcePath, urlPath, title, ...extra });

const pages: NavPage[] = [
  page('docs/guides/install.mdx', '/guides/install', 'Install'),
  page('docs/guides/advanced/tuning.mdx', '/guides/advanced/tuning', 'Tuning'),
  page('docs/guides/configure.mdx', '/guides/configure', 'Configure your site', { sidebarTitle: 'Configure' }),
  page('docs/quickstart.mdx', '/quickstart', 'Quickstart', { order: 1 }),
  page('docs/index.mdx', '/', 'Welcome', { order: 99 }),
  page('docs/api-reference/index.mdx', '/api-reference', 'API overview', { order: 2 }),
  page('docs/api-reference/auth.md', '/api-reference/auth', 'Authentication'),
  page('docs/changelog.mdx', '/changelog', 'Changelog'),
  page('docs/guides/zebra.mdx', '/guides/zebra', 'Zebra', { order: 0 }),
];

t.test('buildNav', async (t) => {
  t.test('should lead a group without root to its first page, depth first, under interaction.drilldown: true', async (t) => {
    const nav = (drilldown: unknown) => buildNav(pages, parseConfig(JSON.stringify({
      name: 'A', interaction: { drilldown },
      navigation: [
        { group: 'Guides', pages: [{ group: 'Advanced', pages: ['guides/advanced/tuning'] }, 'guides/install'] },
        { group: 'Start', root: 'index', pages: ['quickstart'] },
      ],
    }), { siteUrl: 'https://a.example', basePath: '' }));
    const paths = (items: ReturnType<typeof buildNav>): unknown[] => items.flatMap((i) => (i.kind === 'group' ? [[i.title, i.path ?? null], ...paths(i.items)] : []));
    t.same(paths(nav(true)), [['Guides', '/guides/advanced/tuning'], ['Advanced', '/guides/advanced/tuning'], ['Start', '/']], 'root wins over the first page');
    t.same(paths(nav(false)), [['Guides', null], ['Advanced', null], ['Start', '/']], 'false: titles only, as before');
    t.same(paths(nav(undefined)), [['Guides', null], ['Advanced', null], ['Start', '/']], 'unset: titles only');
  });

  t.test('should derive groups from folders: index first, then by order, then by label', async (t) => {
    t.same(buildNav(pages, { contentRoot: 'docs/' }), [
      { kind: 'page', title: 'Welcome', path: '/' },
      { kind: 'page', title: 'Quickstart', path: '/quickstart' },
      {
        kind: 'group', title: 'Api Reference', items: [
          { kind: 'page', title: 'API overview', path: '/api-reference' },
          { kind: 'page', title: 'Authentication', path: '/api-reference/auth' },
        ],
      },
      { kind: 'page', title: 'Changelog', path: '/changelog' },
      {
        kind: 'group', title: 'Guides', items: [
          { kind: 'page', title: 'Zebra', path: '/guides/zebra' },
          { kind: 'group', title: 'Advanced', items: [{ kind: 'page', title: 'Tuning', path: '/guides/advanced/tuning' }] },
          { kind: 'page', title: 'Configure', path: '/guides/configure' },
          { kind: 'page', title: 'Install', path: '/guides/install' },
        ],
      },
    ]);
  });

  t.test('should derive from the repository root when contentRoot is empty', async (t) => {
    t.same(buildNav([page('a/b.mdx', '/a/b', 'B'), page('index.mdx', '/', 'Home')], { contentRoot: '' }), [
      { kind: 'page', title: 'Home', path: '/' },
      { kind: 'group', title: 'A', items: [{ kind: 'page', title: 'B', path: '/a/b' }] },
    ]);
  });

  t.test('should follow an explicit navigation and leave unlisted pages out', async (t) => {
    const nav = buildNav(pages, {
      contentRoot: 'docs/',
      navigation: ['index', { group: 'Get started', pages: ['quickstart', 'guides/install', { group: 'API', pages: ['api-reference', 'api-reference/auth'] }] }, 'changelog'],
    });
    t.same(nav, [
      { kind: 'page', title: 'Welcome', path: '/' },
      {
        kind: 'group', title: 'Get started', items: [
          { kind: 'page', title: 'Quickstart', path: '/quickstart' },
          { kind: 'page', title: 'Install', path: '/guides/install' },
          { kind: 'group', title: 'API', items: [
            { kind: 'page', title: 'API overview', path: '/api-reference' },
            { kind: 'page', title: 'Authentication', path: '/api-reference/auth' },
          ] },
        ],
      },
      { kind: 'page', title: 'Changelog', path: '/changelog' },
    ]);
  });

  t.test('should accept a folder index by its folder path or by folder/index', async (t) => {
    const nav = buildNav(pages, { contentRoot: 'docs/', navigation: ['api-reference/index', 'api-reference'] });
    t.same(nav, [
      { kind: 'page', title: 'API overview', path: '/api-reference' },
      { kind: 'page', title: 'API overview', path: '/api-reference' },
    ]);
  });

  t.test('should name every navigation entry that is not a page', async (t) => {
    try {
      buildNav(pages, { contentRoot: 'docs/', navigation: ['quickstart', 'guides/instal', { group: 'G', pages: ['nope'] }] });
      t.fail('expected a user error');
    } catch (error) {
      t.ok(error instanceof BuilderError);
      const e = error as BuilderError;
      t.same({ kind: e.kind, code: e.code, message: e.message }, {
        kind: 'user',
        code: 'invalid_config',
        message: 'docs.json: navigation[1]: Unexpected "guides/instal"; expected the path of a page in docs/\n'
          + 'docs.json: navigation[2].pages[0]: Unexpected "nope"; expected the path of a page in docs/',
      });
    }
  });

  t.test('should build divisions from the object form, naming languages in their own language', async (t) => {
    const config = parseConfig(JSON.stringify({
      name: 'A',
      navigation: {
        languages: [
          { language: 'en', tabs: [{ tab: 'Guides', groups: [{ group: 'G', root: 'quickstart', tag: 'NEW', expanded: false, pages: ['guides/install'] }] }, { tab: 'Blog', href: 'https://blog.example' }] },
          { language: 'de', hidden: true, pages: ['changelog'] },
          { language: 'fr', default: true, pages: ['changelog'] },
        ],
      },
    }), { siteUrl: 'https://a.example', basePath: '' });
    t.same(buildNav(pages, config), [
      { kind: 'division', division: 'language', title: 'English', items: [
        { kind: 'division', division: 'tab', title: 'Guides', items: [
          { kind: 'group', title: 'G', items: [{ kind: 'page', title: 'Install', path: '/guides/install' }], expanded: false, path: '/quickstart', tag: 'NEW' },
        ] },
        { kind: 'division', division: 'tab', title: 'Blog', items: [], href: 'https://blog.example' },
      ] },
      { kind: 'division', division: 'language', title: 'Français', items: [{ kind: 'page', title: 'Changelog', path: '/changelog' }], default: true },
    ]);
  });

  t.test('should carry group icons (a name or Mintlify\'s { name }) and page icons from frontmatter', async (t) => {
    const config = parseConfig(JSON.stringify({
      name: 'A', navigation: { groups: [{ group: 'G', icon: 'rocket', pages: ['quickstart', { group: 'H', icon: { name: 'book', style: 'solid' }, expanded: true, pages: ['changelog'] }] }] },
    }), { siteUrl: 'https://a.example', basePath: '' });
    const withIcons = pages.map((p) => (p.urlPath === '/quickstart' ? { ...p, icon: 'bolt' } : p));
    t.same(buildNav(withIcons, config), [
      { kind: 'group', title: 'G', icon: 'rocket', items: [
        { kind: 'page', title: 'Quickstart', path: '/quickstart', icon: 'bolt' },
        { kind: 'group', title: 'H', icon: 'book', expanded: true, items: [{ kind: 'page', title: 'Changelog', path: '/changelog' }] },
      ] },
    ]);
  });

  t.test('should name missing pages of the object form by their written path, and skip listed pages that failed', async (t) => {
    const config = parseConfig(JSON.stringify({ name: 'A', navigation: { tabs: [{ tab: 'T', groups: [{ group: 'G', pages: ['quickstart', 'failed', 'nope'] }] }] } }), { siteUrl: 'https://a.example', basePath: '' });
    t.throws(() => buildNav(pages, config, { sources: new Set(['docs/failed.mdx']) }), {
      code: 'invalid_config', message: 'docs.json: navigation.tabs[0].groups[0].pages[2]: Unexpected "nope"; expected the path of a page in docs/',
    });
    const ok = parseConfig(JSON.stringify({ name: 'A', navigation: { tabs: [{ tab: 'T', pages: ['quickstart', 'failed'] }] } }), { siteUrl: 'https://a.example', basePath: '' });
    t.same(buildNav(pages, ok, { sources: new Set(['docs/failed.mdx']) }), [
      { kind: 'division', division: 'tab', title: 'T', items: [{ kind: 'page', title: 'Quickstart', path: '/quickstart' }] },
    ]);
  });

  t.test('should leave hidden: true pages out of the sidebar, and a group of only hidden pages, in both modes', async (t) => {
    const withHidden = [...pages, page('docs/guides/secret.mdx', '/guides/secret', 'Secret', { hidden: true }), page('docs/lab/x.mdx', '/lab/x', 'X', { hidden: true })];
    const explicit = buildNav(withHidden, parseConfig(JSON.stringify({
      name: 'A', navigation: [{ group: 'Guides', pages: ['guides/install', 'guides/secret'] }, { group: 'Lab', pages: ['lab/x'] }],
    }), { siteUrl: 'https://a.example', basePath: '' }));
    t.same(explicit, [{ kind: 'group', title: 'Guides', items: [{ kind: 'page', title: 'Install', path: '/guides/install' }] }]);
    const derived = JSON.stringify(buildNav(withHidden, { contentRoot: 'docs/' }));
    t.notMatch(derived, '/guides/secret');
    t.notMatch(derived, '"Lab"');
  });

  t.test('should make a url: page\'s entry a link to that site', async (t) => {
    const nav = buildNav([page('docs/npm.mdx', '/npm', 'npm package', { url: 'https://www.npmjs.com/package/x' })], parseConfig(JSON.stringify({
      name: 'A', navigation: [{ group: 'Links', pages: ['npm'] }],
    }), { siteUrl: 'https://a.example', basePath: '' }));
    t.same(nav, [{ kind: 'group', title: 'Links', items: [{ kind: 'page', title: 'npm package', path: '/npm', href: 'https://www.npmjs.com/package/x' }] }]);
  });

  t.test('should title-case folder names', async (t) => {
    t.same(['getting-started', 'api_reference', 'faq'].map(titleFromFolder), ['Getting Started', 'Api Reference', 'Faq']);
  });
});

import t, { type Test } from 'tap';
import { navigationWarnings } from '../../src/config/mintlify-keys.ts';
import { parseConfig } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';

const location = { siteUrl: 'https://a.example', basePath: '' };
const parse = (config: unknown) => parseConfig(JSON.stringify(config), location);

function problems(t: Test, config: unknown): string[] {
  try {
    parse(config);
  } catch (error) {
    t.ok(error instanceof BuilderError);
    return (error as BuilderError).message.split('\n');
  }
  t.fail('expected the configuration to be rejected');
  return [];
}

t.test('Mintlify schema keys', async (t) => {
  t.test('should accept menus, boosts, searchable, isDefaultOpen and the other navigation keys Mintlify defines', async (t) => {
    const c = parse({
      name: 'A',
      navigation: {
        directory: 'card',
        tabs: [
          { tab: 'Guides', align: 'end', searchable: false, groups: [
            { group: 'Start', boost: 2, isDefaultOpen: true, directory: 'none', pages: ['index', { group: 'More', expanded: false, isDefaultOpen: true, searchable: true, pages: ['more'] }] },
          ] },
          { tab: 'Products', menu: [
            { item: 'Beam', icon: { name: 'zap', style: 'solid' }, description: 'Light', groups: [{ group: 'Beam', pages: ['beam'] }] },
            { item: 'Store', href: 'https://store.example' },
          ] },
        ],
        products: [{ product: 'core', name: 'Core', menu: [{ item: 'API', pages: ['api'] }] }],
        global: { anchors: [{ anchor: 'Blog', href: 'https://blog.example', hidden: true }, { anchor: 'Status', href: 'https://status.example', iconType: 'solid' }] },
      },
    });
    t.same(c.navigation, [
      { division: 'product', name: 'Core', paths: [['menu', 0]], items: [{ division: 'item', name: 'API', paths: [['pages', 0]], items: ['api'] }] },
      { division: 'tab', name: 'Guides', searchable: false, paths: [['groups', 0]], items: [
        { group: 'Start', boost: 2, expanded: true, pages: ['index', { group: 'More', expanded: false, searchable: true, pages: ['more'] }] },
      ] },
      { division: 'tab', name: 'Products', paths: [['menu', 0], ['menu', 1]], items: [
        { division: 'item', name: 'Beam', icon: 'zap', description: 'Light', paths: [['groups', 0]], items: [{ group: 'Beam', pages: ['beam'] }] },
        { division: 'item', name: 'Store', href: 'https://store.example', paths: [], items: [] },
      ] },
    ]);
    t.same(c.globalLinks, [{ kind: 'anchor', label: 'Status', href: 'https://status.example' }]);
  });

  t.test('should read page paths and redirect sources as Mintlify does: a leading / or ./ is the same path', async (t) => {
    const c = parse({ name: 'A', navigation: ['/guides/install', './quickstart', { group: 'G', root: '/api', pages: ['openapi.json GET /users/'] }], redirects: [{ source: 'old', destination: '/new' }] });
    t.same(c.navigation, ['guides/install', 'quickstart', { group: 'G', root: 'api', pages: ['openapi.json GET /users/'] }]);
    t.same(c.redirects, [{ source: '/old', destination: '/new', permanent: false }]);
    t.same(problems(t, { name: 'A', redirects: [{ source: 'old', destination: '/a' }, { source: '/old', destination: '/b' }] }), [
      'docs.json: redirects[1].source: Unexpected "/old"; expected each source at most once',
    ]);
  });

  t.test('should read three-digit colours as six digits, and typed navbar links and buttons', async (t) => {
    const c = parse({
      name: 'A', colors: { primary: '#0aF', light: '#fff', dark: '#123456' }, background: { color: { light: '#eee' } },
      navbar: { links: [{ type: 'github', href: 'https://github.com/a/b' }, { type: 'discord', href: 'https://discord.gg/x', label: 'Chat' }], primary: { type: 'discord', href: 'https://discord.gg/x' } },
    });
    t.same(c.colors, { primary: '#00aaFF', light: '#ffffff', dark: '#123456' });
    t.same(c.background, { light: '#eeeeee' });
    t.same(c.navbar, {
      links: [{ label: 'GitHub', href: 'https://github.com/a/b' }, { label: 'Chat', href: 'https://discord.gg/x' }],
      primaryCta: { label: 'Discord', href: 'https://discord.gg/x', style: 'solid', external: true },
    });
  });

  t.test('should still reject real mistakes, one line each with the path', async (t) => {
    t.same(problems(t, {
      name: 'A', colors: { primary: '#ffff' },
      navbar: { links: [{ href: 'https://x.example' }] },
      navigation: {
        tabs: [
          { tab: 'T', groups: [{ group: 'G', boost: 'high', isDefaultOpen: 'yes', directory: 'list', pages: ['a'] }], searchable: 'no' },
          { tab: 'M', menu: [{ icon: 'zap', pages: ['b'] }, { item: 'Empty' }, { item: 'X', pages: ['c'], colour: 'red' }] },
        ],
      },
    }), [
      'docs.json: colors.primary: Unexpected "#ffff"; expected # followed by six (or three) hex digits',
      'docs.json: navbar.links[0].label: Required',
      'docs.json: navigation.tabs[0].searchable: Unexpected "no"; expected boolean',
      'docs.json: navigation.tabs[0].groups[0].isDefaultOpen: Unexpected "yes"; expected boolean',
      'docs.json: navigation.tabs[0].groups[0].boost: Unexpected "high"; expected number',
      'docs.json: navigation.tabs[0].groups[0].directory: Unexpected "list"; expected one of none, accordion, card',
      'docs.json: navigation.tabs[1].menu[0].item: Required',
      'docs.json: navigation.tabs[1].menu[2].colour: Unexpected key; navigation.tabs[1].menu[2] accepts item, icon, href, default, tag, hidden, description, color, public, openapi, asyncapi, searchable, directory, iconType, global, graphql, sdk, languages, versions, products, dropdowns, tabs, menu, anchors, groups, pages',
    ]);
  });

  t.test('should warn once per kind of navigation key that changes nothing yet, naming the first place', async (t) => {
    t.same(navigationWarnings({
      directory: 'card',
      global: { tabs: [] },
      languages: [
        { language: 'en', navbar: {}, footer: {}, tabs: [{ tab: 'A', align: 'end', global: {}, groups: [{ group: 'G', directory: 'none', graphql: {}, pages: ['a'] }] }] },
        { language: 'fr', navbar: {}, tabs: [{ tab: 'A', sdk: {}, groups: [{ group: 'G', directory: 'accordion', pages: ['b'] }] }] },
      ],
    }), [
      'docs.json: navigation.directory: ignored; directory listings on group root pages are not rendered yet (and 1 more place)',
      'docs.json: navigation.languages[0].navbar: ignored; the site-wide navbar applies to every language (and 1 more place)',
      'docs.json: navigation.languages[0].footer: ignored; the site-wide footer applies to every language',
      'docs.json: navigation.languages[0].tabs[0].align: ignored; tabs are laid out in order',
      'docs.json: navigation.languages[0].tabs[0].global: ignored; only the top-level navigation.global is shown',
      'docs.json: navigation.languages[0].tabs[0].groups[0].graphql: ignored; GraphQL reference pages are not generated',
      'docs.json: navigation.languages[1].tabs[0].sdk: ignored; SDK reference pages are not generated',
    ]);
    const c = parse({ name: 'A', interaction: { drilldown: false }, thumbnails: {}, api: { openapi: 'a.json', mdx: {} }, banner: { content: 'x', type: 'warning' } });
    t.same(c.warnings, [
      'docs.json: thumbnails: ignored; social images are not generated',
      'docs.json: banner.type: ignored; the banner uses the accent colour',
    ], 'drilldown: false is what the sidebar already does');
  });

  t.test('should accept divisions and groups without pages, as Mintlify does, with a warning', async (t) => {
    const c = parse({ name: 'A', navigation: { tabs: [{ tab: 'Empty' }, { tab: 'Other', menu: [{ item: 'Nothing' }], groups: [{ group: 'Title only' }, { group: 'Also' }] }] } });
    t.same(c.navigation?.[0], { division: 'tab', name: 'Empty', paths: [], items: [] });
    t.same(c.warnings, [
      'docs.json: navigation.tabs[0]: ignored; a tab without pages or href shows nothing',
      'docs.json: navigation.tabs[1].menu[0]: ignored; a menu item without pages or href shows nothing',
      'docs.json: navigation.tabs[1].groups[0]: ignored; a group without pages shows only its title (and 1 more)',
    ]);
  });

  t.test('should list at most 100 problems, then count the rest', async (t) => {
    const lines = problems(t, { name: 'A', redirects: Array.from({ length: 130 }, (_, i) => ({ source: `https://old.example/${i}`, destination: '/x' })) });
    t.equal(lines.length, 101);
    t.equal(lines[0], 'docs.json: redirects[0].source: Unexpected "https://old.example/0"; expected a path of this site such as /old-page');
    t.equal(lines[100], 'docs.json: …and 30 more');
  });
});

import t from 'tap';
import type { NavItem } from '../../src/shared/types.ts';
import { firstPath, hasDivisions, scopeNav } from '../../src/node/divisions.ts';

const page = (title: string, path: string): NavItem => ({ kind: 'page', title, path });
const group = (title: string, items: NavItem[], extra = {}): NavItem => ({ kind: 'group', title, items, ...extra });
const division = (d: Extract<NavItem, { kind: 'division' }>['division'], title: string, items: NavItem[], extra = {}): NavItem => ({ kind: 'division', division: d, title, items, ...extra });

const NAV: NavItem[] = [
  division('language', 'English', [
    division('tab', 'Guides', [group('Start', [page('Home', '/'), page('Quickstart', '/quickstart')])]),
    division('tab', 'API', [group('API', [page('Auth', '/api/auth')], { path: '/api' })], { tag: 'v2' }),
    division('tab', 'Blog', [], { href: 'https://blog.example' }),
    division('anchor', 'Community', [page('Forum', '/community')]),
  ], { default: true }),
  division('language', 'Français', [division('tab', 'Guides', [group('Démarrer', [page('Accueil', '/fr')])])]),
  group('Everywhere', [page('Changelog', '/changelog')]),
];

t.test('scopeNav', async (t) => {
  t.test('should show the page its own tab in the sidebar and every tab in the header', async (t) => {
    t.same(scopeNav(NAV, '/quickstart'), {
      sidebar: [group('Start', [page('Home', '/'), page('Quickstart', '/quickstart')]), group('Everywhere', [page('Changelog', '/changelog')])],
      tabs: [
        { title: 'Guides', href: '/', current: true, external: false },
        { title: 'API', href: '/api', current: false, external: false, tag: 'v2' },
        { title: 'Blog', href: 'https://blog.example', current: false, external: true },
      ],
      anchors: [{ title: 'Community', href: '/community', current: false, external: false }],
      switchers: { language: { current: 'English', options: [{ label: 'English', href: '/' }, { label: 'Français', href: '/fr' }] } },
    });
  });

  t.test('should enter an anchor only from its own pages', async (t) => {
    const forum = scopeNav(NAV, '/community');
    t.same(forum.sidebar, [page('Forum', '/community'), group('Start', [page('Home', '/'), page('Quickstart', '/quickstart')]), group('Everywhere', [page('Changelog', '/changelog')])]);
    t.same(forum.anchors, [{ title: 'Community', href: '/community', current: true, external: false }]);
  });

  t.test('should enter the page language and tab', async (t) => {
    const fr = scopeNav(NAV, '/fr');
    t.same(fr.switchers.language?.current, 'Français');
    t.same(fr.tabs, [{ title: 'Guides', href: '/fr', current: true, external: false }]);
    t.same(fr.sidebar, [group('Démarrer', [page('Accueil', '/fr')]), group('Everywhere', [page('Changelog', '/changelog')])]);
    t.same(scopeNav(NAV, '/api').tabs.map((tab) => tab.current), [false, true, false], 'a group root counts as its page');
  });

  t.test('should fall back to the default division for pages outside every division', async (t) => {
    const outside = scopeNav(NAV, '/changelog');
    t.same(outside.switchers.language?.current, 'English');
    t.same(outside.tabs[0].current, true);
  });

  t.test('should make a tab\'s menu items its dropdown and fill the sidebar with the page\'s own item', async (t) => {
    const nav: NavItem[] = [
      division('tab', 'Guides', [page('Home', '/')]),
      division('tab', 'Products', [
        division('item', 'Beam', [group('Beam', [page('Overview', '/beam'), page('Setup', '/beam/setup')])], { description: 'Light', icon: 'zap' }),
        division('item', 'Lens', [page('Lens', '/lens')]),
        division('item', 'Store', [], { href: 'https://store.example' }),
      ]),
      division('tab', 'Links', [division('item', 'Blog', [], { href: 'https://blog.example' })]),
    ];
    const menu = (current: string) => [
      { title: 'Beam', href: '/beam', current: current === '/beam', external: false, description: 'Light', icon: 'zap' },
      { title: 'Lens', href: '/lens', current: current === '/lens', external: false },
      { title: 'Store', href: 'https://store.example', current: false, external: true },
    ];
    const lens = scopeNav(nav, '/lens');
    t.same(lens.tabs, [
      { title: 'Guides', href: '/', current: false, external: false },
      { title: 'Products', href: '/beam', current: true, external: false, menu: menu('/lens') },
      { title: 'Links', href: 'https://blog.example', current: false, external: true, menu: [{ title: 'Blog', href: 'https://blog.example', current: false, external: true }] },
    ]);
    t.same(lens.sidebar, [page('Lens', '/lens')]);
    t.same(lens.anchors, [], 'menu items are no sidebar links');
    t.same(scopeNav(nav, '/').tabs[1].menu, menu('/'));
    t.same(scopeNav(nav, '/beam/setup').sidebar, [group('Beam', [page('Overview', '/beam'), page('Setup', '/beam/setup')])]);
  });

  t.test('should leave a tree without divisions as it is', async (t) => {
    const plain = [group('G', [page('A', '/a')])];
    t.equal(hasDivisions(plain), false);
    t.equal(hasDivisions(NAV), true);
    t.same(scopeNav(plain, '/a'), { sidebar: plain, tabs: [], anchors: [], switchers: {} });
    t.equal(firstPath(NAV), '/');
  });
});

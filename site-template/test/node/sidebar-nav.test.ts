import t from 'tap';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import type { NavItem } from '../../src/shared/types.ts';
import { hasFolds, SidebarNav, SidebarNavDrawn } from '../../src/node/sidebar-nav.tsx';

/** Every page path of a tree, group roots included. */
function paths(items: NavItem[]): string[] {
  return items.flatMap((item) => item.kind === 'page' ? [item.path] : [...(item.kind === 'group' && item.path ? [item.path] : []), ...paths(item.items)]);
}

const page = (path: string, extra: Partial<NavItem> = {}): NavItem => ({ kind: 'page', title: `Page ${path}`, path, ...extra } as NavItem);

const tree: NavItem[] = [
  page('/'),
  { kind: 'group', title: 'Start', icon: 'rocket', path: '/start', items: [page('/start/install', { icon: 'github' }), page('/start/a&b "q"'), page('/start/émoji', { icon: '🚀' })] },
  { kind: 'group', title: 'Nested', tag: 'NEW', items: [
    { kind: 'group', title: 'Inner', path: '/start/install', items: [page('/inner/one', { icon: '/img/one.png' }), page('/start')] },
    page('/ext', { href: 'https://example.com/ext' }),
    page('/start/install'),
  ] },
];

t.test('a full sidebar from the cache equals one drawn for the page, on every page and base path', async (t) => {
  t.notOk(hasFolds(tree));
  for (const basePath of ['', '/docs', '/a b&c']) {
    for (const current of [...new Set(paths(tree)), '/not-in-nav']) {
      const cached = render(h(SidebarNav, { items: tree, current, basePath }));
      const drawn = render(h(SidebarNavDrawn, { items: tree, current, basePath }));
      t.equal(cached, drawn, `${basePath || '(root)'} ${current}`);
    }
  }
  // The comparison proves something: the current page is marked, twice where it is listed twice.
  const html = render(h(SidebarNav, { items: tree, current: '/start/install', basePath: '' }));
  t.equal(html.split('aria-current="page"').length - 1, 3, 'the page link, its second listing and the group titled with it');
});

t.test('sidebars with folding groups are drawn for each page', async (t) => {
  const folding: NavItem[] = [{ kind: 'group', title: 'Fold', expanded: false, items: [page('/x'), page('/y')] }];
  t.ok(hasFolds(folding));
  t.match(render(h(SidebarNav, { items: folding, current: '/y', basePath: '' })), '<details open>', 'open where it holds the current page');
  t.notMatch(render(h(SidebarNav, { items: folding, current: '/z', basePath: '' })), '<details open>');
});

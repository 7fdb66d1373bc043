import t from 'tap';
import type { NavItem } from '@folio/site-template/shared/types.ts';
import { prevNext, prevNextByPath, readingOrder } from '../../src/nav/prev-next.ts';

const nav: NavItem[] = [
  { kind: 'page', title: 'Welcome', path: '/' },
  { kind: 'group', title: 'Guides', items: [
    { kind: 'page', title: 'Install', path: '/guides/install' },
    { kind: 'group', title: 'Deep', items: [{ kind: 'page', title: 'Tuning', path: '/guides/tuning' }] },
    { kind: 'page', title: 'Welcome again', path: '/' },
  ] },
  { kind: 'page', title: 'Changelog', path: '/changelog' },
];

t.test('prevNext', async (t) => {
  t.test('should flatten the sidebar depth-first, counting a repeated page once', async (t) => {
    t.same(readingOrder(nav).map((l) => l.path), ['/', '/guides/install', '/guides/tuning', '/changelog']);
  });

  t.test('should link neighbours across group boundaries', async (t) => {
    t.same(prevNext(nav, '/'), { next: { title: 'Install', path: '/guides/install' } });
    t.same(prevNext(nav, '/guides/tuning'), { prev: { title: 'Install', path: '/guides/install' }, next: { title: 'Changelog', path: '/changelog' } });
    t.same(prevNext(nav, '/changelog'), { prev: { title: 'Tuning', path: '/guides/tuning' } });
  });

  t.test('should give pages outside the sidebar no neighbours', async (t) => {
    t.same(prevNext(nav, '/hidden'), {});
  });

  t.test('should read a group\'s root page before its pages', async (t) => {
    const rooted: NavItem[] = [{ kind: 'page', title: 'Home', path: '/' }, { kind: 'group', title: 'API', path: '/api', items: [{ kind: 'page', title: 'Auth', path: '/api/auth' }] }];
    t.same(readingOrder(rooted).map((l) => l.path), ['/', '/api', '/api/auth']);
    t.same(prevNext(rooted, '/api'), { prev: { title: 'Home', path: '/' }, next: { title: 'Auth', path: '/api/auth' } });
  });

  t.test('should cross tabs and groups but never languages or versions', async (t) => {
    const page = (path: string): NavItem => ({ kind: 'page', title: path, path });
    const split: NavItem[] = [
      { kind: 'division', division: 'language', title: 'English', items: [
        { kind: 'division', division: 'tab', title: 'Guides', items: [{ kind: 'group', title: 'Start', items: [page('/'), page('/install')] }] },
        { kind: 'division', division: 'tab', title: 'API', items: [{ kind: 'group', title: 'Reference', items: [page('/api')] }] },
        { kind: 'division', division: 'version', title: 'v1', items: [page('/v1/old')] },
      ] },
      { kind: 'division', division: 'language', title: 'Français', items: [{ kind: 'group', title: 'Démarrer', items: [page('/fr'), page('/fr/install')] }] },
    ];
    const all = prevNextByPath(split);
    t.same(all.get('/install'), { prev: { title: '/', path: '/' }, next: { title: '/api', path: '/api' } }, 'across tabs');
    t.same(all.get('/api'), { prev: { title: '/install', path: '/install' } }, 'not into a version');
    t.same(all.get('/v1/old'), {});
    t.same(all.get('/fr'), { next: { title: '/fr/install', path: '/fr/install' } }, 'not back into English');
    t.same(prevNext(split, '/fr/install'), { prev: { title: '/fr', path: '/fr' } });
  });

  t.test('should compute every page at once with the same answers', async (t) => {
    const all = prevNextByPath(nav);
    t.same([...all.keys()], ['/', '/guides/install', '/guides/tuning', '/changelog']);
    t.same(all.get('/guides/install'), prevNext(nav, '/guides/install'));
  });
});

import t from 'tap';
import type { NavPage } from '../../src/nav/build-nav.ts';
import { siteNav } from '../../src/nav/dimension-nav.ts';
import { prevNextByPath } from '../../src/nav/prev-next.ts';
import { rememberedSiteNav } from '../../src/nav/remembered-nav.ts';

const page = (name: string, extra: Partial<NavPage> = {}): NavPage => ({ sourcePath: `docs/${name}.mdx`, urlPath: `/${name}`, title: name, ...extra });
const config = { contentRoot: 'docs/', navigation: [{ group: 'Start', pages: ['intro', 'install'] }] };

t.test('a kept builder gets the same sidebar back while nothing it is made from changed', async (t) => {
  const pages = [page('intro'), page('install'), page('extra')];
  const sources = pages.map((p) => p.sourcePath);
  const first = rememberedSiteNav(pages, config, sources);
  t.same(first, siteNav(pages, config, { sources: new Set(sources) }), 'what siteNav makes');
  t.ok(Object.isFrozen(first.nav) && Object.isFrozen(first.nav[0]), 'frozen: builds share it');

  // The next build: new summary objects for an edited page whose place did not change.
  const edited = [pages[0], { ...pages[1] }, pages[2]];
  t.equal(rememberedSiteNav(edited, { ...config, navigation: [{ group: 'Start', pages: ['intro', 'install'] }] }, [...sources]), first, 'the same objects');
  t.equal(prevNextByPath(first.nav), prevNextByPath(first.nav), 'and what is derived from them by identity');

  const changes: Array<[string, NavPage[], typeof config, string[]]> = [
    ['a title', [pages[0], page('install', { title: 'Install it' }), pages[2]], config, sources],
    ['a sidebar title', [pages[0], page('install', { sidebarTitle: 'Setup' }), pages[2]], config, sources],
    ['an icon', [pages[0], page('install', { icon: 'rocket' }), pages[2]], config, sources],
    ['an order', [pages[0], pages[1], page('extra', { order: 1 })], config, sources],
    ['an API operation', [pages[0], pages[1], page('extra', { api: { operation: 'listPages', tag: 'Pages' } })], config, sources],
    ['a page added', [...pages, page('more')], config, [...sources, 'docs/more.mdx']],
    ['a page gone', pages.slice(0, 2), config, sources.slice(0, 2)],
    ['a source that failed', pages.slice(0, 2), config, sources],
    ['the navigation', pages, { ...config, navigation: [{ group: 'Begin', pages: ['intro', 'install'] }] }, sources],
    ['the content root', pages.map((p) => ({ ...p, sourcePath: p.sourcePath.replace('docs/', 'site/') })), { ...config, contentRoot: 'site/' }, sources.map((s) => s.replace('docs/', 'site/'))],
  ];
  let previous = rememberedSiteNav(pages, config, sources);
  for (const [what, nextPages, nextConfig, nextSources] of changes) {
    const made = rememberedSiteNav(nextPages, nextConfig, nextSources);
    t.not(made, previous, `made again after a change of ${what}`);
    t.same(made, siteNav(nextPages, nextConfig, { sources: new Set(nextSources) }), `as siteNav makes it (${what})`);
    previous = rememberedSiteNav(pages, config, sources);
  }
});

t.test('a navigation naming a missing page fails every time, never remembered', async (t) => {
  const pages = [page('intro')];
  const broken = { contentRoot: 'docs/', navigation: [{ group: 'Start', pages: ['intro', 'nowhere'] }] };
  t.throws(() => rememberedSiteNav(pages, broken, ['docs/intro.mdx']));
  t.throws(() => rememberedSiteNav(pages, broken, ['docs/intro.mdx']));
});

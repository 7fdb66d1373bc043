import t from 'tap';
import { renderPage } from '../../src/node/render-page.tsx';
import { samplePageInput, sampleSite } from '../../src/node/sample-site.tsx';
import type { NavItem, PageShellInput, ThemeName } from '../../src/shared/types.ts';

const NAV: NavItem[] = [
  { kind: 'division', division: 'tab', title: 'Guides', items: [{ kind: 'page', title: 'SDK guide', path: '/guides/sdk' }] },
  { kind: 'division', division: 'tab', title: 'Tools', items: [{ kind: 'division', division: 'item', title: 'CLI', description: 'Command line', items: [{ kind: 'page', title: 'CLI', path: '/cli' }] }] },
];
const SWITCHERS: PageShellInput['switchers'] = {
  language: { current: 'English', options: [{ label: 'English', href: '/' }, { label: 'Deutsch', href: '/de/' }] },
  version: { current: 'v2', options: [{ label: 'v2', href: '/' }, { label: 'v1', href: '/v1/' }] },
};

/** The sample page with two tabs (one a menu) and two switchers, icons shortened to `<svg/>`. */
function render(theme: ThemeName, nav = NAV): string {
  const base = samplePageInput(sampleSite(theme, { basePath: '/docs' }));
  return renderPage({ ...base, nav, switchers: SWITCHERS }).replace(/<svg[^>]*>.*?<\/svg>/gs, '<svg/>');
}

/** The first element of `html` from `open` to the first following `close`. */
const block = (html: string, open: string, close: string) => {
  const at = html.indexOf(open);
  return at < 0 ? undefined : html.slice(at, html.indexOf(close, at) + close.length);
};

t.test('menu', async (t) => {
  t.test('should repeat the tabs atop the menu, a tab with a menu as a group of its items', async (t) => {
    t.equal(block(render('larch'), '<nav class="menu-tabs"', '</nav>'), '<nav class="menu-tabs" aria-label="Sections">'
      + '<a href="/docs/guides/sdk" aria-current="true">Guides</a>'
      + '<details class="menu-tab-group"><summary>Tools<svg/></summary><ul><li><a href="/docs/cli"><span class="tab-menu-text">'
      + '<span class="tab-menu-title">CLI</span><span class="tab-menu-description">Command line</span></span></a></li></ul></details></nav>');
  });

  t.test('should repeat the header\'s switchers atop the menu, not those of the sidebar footer', async (t) => {
    const controls = (theme: ThemeName) => block(render(theme), '<div class="menu-controls">', '</details></div>')?.match(/data-control="\w+"/g);
    t.same(controls('larch'), ['data-control="language"', 'data-control="version"']);
    t.same(controls('cedar'), ['data-control="language"'], 'cedar shows the version in its sidebar footer');
    t.equal(block(render('larch'), '<details class="switcher menu-switcher" data-control="language"', '</details>'),
      '<details class="switcher menu-switcher" data-control="language"><summary aria-label="Language: English">English<svg/></summary>'
      + '<ul><li><a href="/docs/" aria-current="true">English</a></li><li><a href="/docs/de/">Deutsch</a></li></ul></details>');
  });

  t.test('should put the tabs on a row of their own under the header\'s top row, and mark <html> for it', async (t) => {
    const html = render('larch');
    t.match(html, /<\/a><\/div><div class="header-tabs-row"><nav class="header-tabs" aria-label="Sections"><a href="\/docs\/guides\/sdk" aria-current="true">Guides<\/a><details class="tab-menu">/);
    t.match(html, /<html [^>]*data-tabs>/);
    const plain = render('larch', []);
    t.same([plain.includes('header-tabs-row'), plain.includes('menu-tabs'), /<html [^>]*data-tabs/.test(plain)], [false, false, false], 'no tabs, no row');
  });
});

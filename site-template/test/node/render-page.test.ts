import t from 'tap';
import { render404, renderPage } from '../../src/node/render-page.tsx';
import { placeholderAssets, samplePageInput, sampleSite } from '../../src/node/sample-site.tsx';
import type { NavItem, PageShellInput, SiteConfig } from '../../src/shared/types.ts';

/** Renders the sample page with site overrides and page overrides. */
function render(site: Partial<SiteConfig> = {}, page: Partial<PageShellInput['page']> = {}, input: Partial<PageShellInput> = {}): string {
  const base = samplePageInput(sampleSite('larch', site));
  return renderPage({ ...base, ...input, page: { ...base.page, ...page } });
}

/** Every match of `re` (its first matched group, else the whole match). */
function all(html: string, re: RegExp): string[] {
  return [...html.matchAll(new RegExp(re, 'g'))].map((m) => m.slice(1).find((g) => g !== undefined) ?? m[0]);
}

t.test('render-page', async (t) => {
  t.test('should focus the sidebar of large sites on the current page\'s groups', async (t) => {
    const group = (g: number, pages: number): NavItem => ({ kind: 'group', title: `Group ${g}`, items: Array.from({ length: pages }, (_, i) => ({ kind: 'page', title: `Page ${g}.${i}`, path: `/g${g}/p${i}` })) });
    const sidebar = (nav: NavItem[], path: string) => {
      const html = render({}, { path }, { nav });
      return html.slice(html.indexOf('<nav class="sidebar-nav"'), html.indexOf('</nav>', html.indexOf('<nav class="sidebar-nav"')));
    };
    const small = sidebar([group(1, 2), group(2, 2)], '/g1/p0');
    t.same(all(small, /<a [^>]*href="([^"]+)"/), ['/g1/p0', '/g1/p1', '/g2/p0', '/g2/p1'], 'small sites list every page');
    // Mintlify draws every group: so does a sidebar of hundreds of pages.
    const mid = sidebar(Array.from({ length: 30 }, (_, g) => group(g, 10)), '/g3/p4');
    t.same(all(mid, /<a [^>]*href="([^"]+)"/).length, 300, 'a 300-page sidebar lists every page');
    t.notMatch(mid, 'nav-group-collapsed');
    const large = sidebar(Array.from({ length: 16 }, (_, g) => group(g, 100)), '/g3/p4');
    t.same(all(large, /<a [^>]*href="([^"]+)"/).length, 15 + 100, 'past 1,500 pages other groups collapse to one link each');
    t.match(large, '<li class="nav-group nav-group-collapsed"><a class="nav-group-title" href="/g0/p0">Group 0</a></li>');
    t.match(large, '<a href="/g3/p4" aria-current="page">Page 3.4</a>');
  });

  t.test('should draw navigation icons and fold groups that set expanded', async (t) => {
    const nav: NavItem[] = [
      { kind: 'group', title: 'Start', icon: 'rocket', items: [{ kind: 'page', title: 'Install', path: '/install', icon: '🚀' }] },
      { kind: 'group', title: 'Closed', expanded: false, items: [{ kind: 'page', title: 'A', path: '/a', icon: '/img/a.png' }] },
      { kind: 'group', title: 'Open', expanded: true, items: [{ kind: 'page', title: 'B', path: '/b' }] },
      { kind: 'group', title: 'Holds me', expanded: false, items: [{ kind: 'page', title: 'C', path: '/c' }] },
    ];
    const html = render({}, { path: '/c' }, { nav });
    const side = html.slice(html.indexOf('<nav class="sidebar-nav"'), html.indexOf('</nav>', html.indexOf('<nav class="sidebar-nav"')));
    t.match(side, '<li class="nav-group"><p class="nav-group-title"><svg class="icon nav-icon" data-icon="rocket" width="16" height="16" aria-hidden="true"><use href="#nav-icon-sprite-rocket"></use></svg>Start</p>', 'a group icon by name uses its symbol');
    t.equal(side.split('<symbol id="nav-icon-sprite-rocket" viewBox="0 0 24 24" fill="none" stroke="currentColor"').length, 2, 'the symbol is drawn once, in the sidebar, stroked like a Lucide icon');
    t.match(side, /^<nav class="sidebar-nav" aria-label="Documentation"><svg class="nav-icon-sprite" hidden aria-hidden="true"><symbol /, 'the sprite opens the sidebar, hidden without an inline style');
    t.match(side, '<a href="/install"><span class="icon nav-icon" aria-hidden="true">🚀</span>Install</a>', 'an emoji stays text');
    t.match(side, '<a href="/a"><img class="icon nav-icon" src="/img/a.png" alt aria-hidden="true"/>A</a>', 'an image path is an image');
    t.same([...side.matchAll(/<details( open)?><summary><p class="nav-group-title">([^<]+)<\/p>/g)].map((m) => [m[2], Boolean(m[1])]),
      [['Closed', false], ['Open', true], ['Holds me', true]], 'expanded: false stays closed unless it holds the current page');
  });

  t.test('should link the page\'s island module only when it has one, under the base path', async (t) => {
    t.same(all(render({ basePath: '/docs' }, { island: '/_folio/islands/0123456789abcdef.js' }), /<script type="module" src="([^"]+)"/), ['/docs/_folio/client-0000.js', '/docs/_folio/islands/0123456789abcdef.js']);
    t.same(all(render(), /<script type="module" src="([^"]+)"/), ['/_folio/client-0000.js']);
  });

  t.test('should speak the page language: lang, words, hreflang, fallback note, search scope', async (t) => {
    const html = render({}, { path: '/fr/v2/guides/sdk' }, {
      locale: {
        lang: 'fr',
        alternates: [{ hreflang: 'en', href: '/v2/guides/sdk' }, { hreflang: 'x-default', href: '/v2/guides/sdk' }],
        fallback: { href: '/v2/guides/sdk', missing: 'language', wanted: 'Français', shown: 'English' },
        search: { scope: 'fr/v2', prefix: '/fr/v2' },
      },
    });
    t.same(all(html, /<html lang="([^"]+)"/), ['fr']);
    t.same(all(html, /<link rel="canonical" href="([^"]+)"/), ['https://acme.docs.example/v2/guides/sdk']);
    t.same(all(html, /<link rel="alternate" hreflang="([^"]+" href="[^"]+)"/), ['en" href="https://acme.docs.example/v2/guides/sdk', 'x-default" href="https://acme.docs.example/v2/guides/sdk']);
    t.same(all(html, /<p class="fallback-note"[^>]*><a href="[^"]+">([^<]+)<\/a>/), ["Cette page n'est pas encore disponible en Français ; elle est affichée en English."]);
    t.same(all(html, /<meta name="folio-scope" content="([^"]+)"/), ['{&quot;scope&quot;:&quot;fr/v2&quot;,&quot;prefix&quot;:&quot;/fr/v2&quot;}']);
    t.same(all(html, /<span class="search-label">([^<]+)</), ['Rechercher']);
    t.same(all(html, /<p class="toc-title" id="toc-title">([^<]+)</), ['Sur cette page']);
    t.same(all(html, /href="([^"]+)" data-copy-markdown/), ['/guides/sdk.md'], 'the export path is the builder\'s to set');
  });

  t.test('should compose the title from the page, a separator and the site title', async (t) => {
    t.same(all(render(), /<title>(.*?)<\/title>/), ['SDK guide - Acme Docs']);
    t.same(all(render({ seo: { title: 'Acme Developer Hub', indexing: 'default' } }), /<title>(.*?)<\/title>/), ['SDK guide - Acme Developer Hub']);
    t.same(all(render({}, { seo: { title: 'SDK' } }), /<title>(.*?)<\/title>/), ['SDK guide - SDK'], 'frontmatter seo.title overrides the site part');
    t.same(all(render({}, { title: 'Acme Docs' }), /<title>(.*?)<\/title>/), ['Acme Docs'], 'a page titled like the site shows it once');
  });

  t.test('should start with a doctype and carry per-site settings on <html>', async (t) => {
    const html = render({
      colors: { primary: '#0ea5e9', light: '#38bdf8', dark: '#0369a1' },
      background: { dark: 'linear-gradient(#000, #111)', light: 'red;}body{display:none' },
      typography: { fontFamily: 'Inter, sans-serif', headingFont: 'Georgia' },
      appearance: { default: 'dark', strict: false },
    });
    t.equal(html.slice(0, html.indexOf('<head>')),
      '<!doctype html><html lang="en" data-theme="larch" data-appearance="dark" data-mode="dark" data-footer-width="reading" data-header="plain" data-sidebar="plain" data-width="reading" data-code="bordered" ' +
      'style="--folio-primary:#0ea5e9;--folio-primary-light:#38bdf8;--folio-primary-dark:#0369a1;--folio-bg-dark:linear-gradient(#000, #111);' +
      '--folio-font:Inter, sans-serif;--folio-heading-font:Georgia, var(--theme-heading-font, var(--theme-font))">',
      'a value that would break out of the declaration is dropped; a font family falls back on the theme\'s');
  });

  t.test('should render SEO metadata with page overrides', async (t) => {
    const html = render(
      { basePath: '/docs', seo: { indexing: 'default', author: 'Acme', ogImage: '/og.png', favicon: '/favicon.svg', metatags: { 'google-site-verification': 'abc', 'og:locale': 'en_US' } } },
      { seo: { metatags: { 'og:locale': 'fr_FR' } } },
    );
    t.same(all(html, /<meta name="author"[^>]*>|<link rel="(?:canonical|icon)"[^>]*>|<meta (?:property|name)="(?:og:image|twitter:[a-z]+|google-site-verification|og:locale)"[^>]*>/), [
      '<meta name="author" content="Acme"/>',
      '<link rel="canonical" href="https://acme.docs.example/docs/guides/sdk"/>',
      '<link rel="icon" href="/docs/favicon.svg"/>',
      '<meta property="og:image" content="https://acme.docs.example/docs/og.png"/>',
      '<meta name="twitter:card" content="summary_large_image"/>',
      '<meta name="twitter:image" content="https://acme.docs.example/docs/og.png"/>',
      '<meta name="google-site-verification" content="abc"/>',
      '<meta property="og:locale" content="fr_FR"/>',
    ]);
    t.same(all(html, /<meta name="description"[^>]*>/), ['<meta name="description" content="Install the SDK, authenticate and make your first call."/>']);
  });

  t.test('should add robots noindex only when indexing is noindex', async (t) => {
    t.same(all(render(), /<meta name="robots"[^>]*>/), []);
    t.same(all(render({ seo: { indexing: 'noindex' } }), /<meta name="robots"[^>]*>/), ['<meta name="robots" content="noindex"/>']);
    t.same(all(render({}, { seo: { indexing: 'noindex' } }), /<meta name="robots"[^>]*>/), ['<meta name="robots" content="noindex"/>'], 'per page');
  });

  t.test('should render the call to action with its style and target', async (t) => {
    const external = render({ navbar: { primaryCta: { label: 'Sign up', href: 'https://app.acme.example', style: 'outline', color: '#111', textColor: '#fff', external: true } } });
    // Once in the header, once atop the menu (shown instead on narrow screens).
    const outline = '<a class="cta" data-style="outline" href="https://app.acme.example" style="--cta-bg:#111;--cta-fg:#fff" target="_blank" rel="noopener">Sign up</a>';
    t.same(all(external, /<a class="cta"[^>]*>[^<]*<\/a>/), [outline, outline]);
    const internal = render({ basePath: '/docs', navbar: { primaryCta: { label: 'Start', href: '/start', style: 'ghost', external: false } } });
    t.same(all(internal, /<a class="cta"[^>]*>[^<]*<\/a>/), ['<a class="cta" data-style="ghost" href="/docs/start">Start</a>', '<a class="cta" data-style="ghost" href="/docs/start">Start</a>']);
  });

  t.test('should repeat the navbar links and the CTA atop the menu, and render nothing there without them', async (t) => {
    const html = render({ basePath: '/docs', navbar: { links: [{ label: 'Blog', href: '/blog' }], primaryCta: { label: 'Start', href: '/start', style: 'solid', external: false } } });
    t.same(all(html, /<div class="menu-links">.*?<\/div>/), ['<div class="menu-links"><nav aria-label="Site"><a href="/docs/blog">Blog</a></nav><a class="cta" data-style="solid" href="/docs/start">Start</a></div>']);
    t.same(all(render({ navbar: {} }), /class="menu-links"/), []);
  });

  t.test('should write the theme layout traits on <html>', async (t) => {
    const attrs = (theme: 'cedar' | 'obsidian' | 'ember') => all(renderPage(samplePageInput(sampleSite(theme))), /<html[^>]*?( data-header.*?)>/);
    t.same(attrs('cedar'), [' data-header="bar" data-sidebar="lines" data-width="reading" data-code="rule"']);
    t.same(attrs('obsidian'), [' data-header="floating" data-sidebar="lines" data-width="wide" data-code="window"']);
    t.same(attrs('ember'), [' data-header="transparent" data-sidebar="cards" data-width="wide" data-code="window"']);
  });

  t.test('should drop a leading body H1 that repeats the title, and keep one that differs', async (t) => {
    const page = (bodyHtml: string, title = 'Glossary') => renderPage({ ...samplePageInput(), page: { ...samplePageInput().page, title, description: undefined, bodyHtml } });
    const body = (html: string) => all(html, /<div class="prose">(.*?)<\/div><\/article>/);
    t.same(body(page('<h1 id="glossary">Glossary<a class="heading-anchor" href="#glossary" aria-hidden="true" tabindex="-1">#</a></h1>\n<p>Terms.</p>')), ['<p>Terms.</p>']);
    t.same(body(page('<h1 id="a-b">A &amp; <code>B</code></h1><p>x</p>', 'A & B')), ['<p>x</p>'], 'compared as text');
    t.same(body(page('<h1 id="welcome">Welcome</h1><p>x</p>')), ['<h1 id="welcome">Welcome</h1><p>x</p>']);
    t.same(body(page('<p>Glossary</p><h1>Glossary</h1>')), ['<p>Glossary</p><h1>Glossary</h1>'], 'only a leading H1');
  });

  t.test('should render social links with icons and other slugs as text', async (t) => {
    const html = render({ footer: { style: 'page', social: { github: 'https://github.com/acme', hackernews: 'https://news.ycombinator.com/x', mastodon: 'https://m.example/@acme' } } });
    t.same(all(html, /<li>(<a [^>]*>)(?:<svg|mastodon)/), [
      '<a href="https://github.com/acme" aria-label="GitHub" rel="noopener" data-platform="github">',
      '<a href="https://news.ycombinator.com/x" aria-label="Hacker News" rel="noopener" data-platform="hackernews">',
      '<a href="https://m.example/@acme" rel="noopener">',
    ]);
    t.same(all(html, /<li><a href="https:\/\/m[^<]*<\/a><\/li>/), ['<li><a href="https://m.example/@acme" rel="noopener">mastodon</a></li>']);
  });

  t.test('should expand {year} in the copyright and list legal links', async (t) => {
    const html = renderPage({ ...samplePageInput(sampleSite('larch', { legal: { copyright: '© 2019–{year} Acme', cookieUrl: '/cookies', links: [{ label: 'Imprint', href: '/imprint' }] } })), year: 2031 });
    t.same(all(html, /<div class="legal">.*?<\/div>/), ['<div class="legal"><p class="copyright">© 2019–2031 Acme</p><nav aria-label="Legal"><a href="/cookies">Cookies</a><a href="/imprint">Imprint</a></nav></div>']);
  });

  t.test('should render footer columns only for the columns style', async (t) => {
    t.same(all(render(), /<p class="footer-column-title">([^<]*)/), ['Product', 'Company']);
    const page = render({ footer: { style: 'page', links: [{ title: 'Product', items: [] }] } });
    t.same(all(page, /<p class="footer-column-title">([^<]*)/), []);
    t.same(all(render({ footer: { style: 'none' }, legal: undefined }), /<footer[^>]*>/), [], 'none without legal renders nothing');
  });

  t.test('should order header controls as configured and hide the toggle when strict', async (t) => {
    const switchers = { language: { current: 'English', options: [{ label: 'English', href: '/' }, { label: 'Deutsch', href: '/de' }] } };
    const header = (html: string) => all(html.slice(html.indexOf('<div class="header-controls">'), html.indexOf('</header>')), /data-control="([a-z]+)"/);
    t.same(header(render({ assistantTrigger: 'button', navbar: { controls: { order: ['appearance', 'assistant'] } } }, {}, { switchers })), ['appearance', 'assistant', 'language']);
    t.same(header(render({ assistantTrigger: 'button' }, {}, { switchers })), ['language', 'assistant', 'appearance'], 'default order');
    const strict = render({ appearance: { default: 'light', strict: true } });
    t.same(all(strict, /data-control="appearance"/), []);
    t.same(all(strict, /<html[^>]*>/), ['<html lang="en" data-theme="larch" data-appearance="light" data-strict data-mode="light" data-footer-width="reading" data-header="plain" data-sidebar="plain" data-width="reading" data-code="bordered">']);
  });

  t.test('should mark the current page in the sidebar', async (t) => {
    t.same(all(render(), /<a [^>]*aria-current="page"[^>]*>[^<]*<\/a>/), ['<a href="/guides/sdk" aria-current="page">SDK guide</a>']);
  });

  t.test('should resolve the logo link against the base path and show both logos', async (t) => {
    const html = render({ basePath: '/docs', colors: { logo: { light: '/logo.svg', dark: 'https://cdn.example/dark.svg', href: '/' } } });
    t.same(all(html, /<header class="site-header">.*?(<a class="brand".*?<\/a>)/), [
      '<a class="brand" href="/docs/"><img class="logo logo-light" src="/docs/logo.svg" alt="Acme Docs"/><img class="logo logo-dark" src="https://cdn.example/dark.svg" alt="Acme Docs"/></a>',
    ]);
  });

  t.test('should show the RSS button only on pages with rss', async (t) => {
    t.same(all(render(), /<a class="rss-link" href="([^"]*)"/), ['/guides/sdk/rss.xml']);
    t.same(all(render({}, { rss: false }), /class="rss-link"|application\/rss\+xml" title/), []);
  });

  t.test('should render a noindex 404 page without a canonical URL', async (t) => {
    const html = render404({ site: sampleSite(), nav: [], assets: placeholderAssets(), searchBase: '/_pagefind/', year: 2025 });
    t.same(all(html, /<title>(.*?)<\/title>|<meta name="robots"[^>]*>|<link rel="canonical"|<h1>(.*?)<\/h1>|data-pagefind-body/), ['Page not found - Acme Docs', '<meta name="robots" content="noindex"/>', 'Page not found']);
  });
});

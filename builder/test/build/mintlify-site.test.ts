import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { loadConfig } from '../../src/config/parse-config.ts';
import { openDirSnapshot } from '../../src/git/repo-snapshot.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-site/', import.meta.url));
const location = { siteUrl: 'https://acme.example', basePath: '' };

/** Every file under `dir`, relative, sorted (the builder's own `_folio/` and `_pagefind/` left out). */
function listFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === '_folio' || p === '_pagefind') return [];
    return e.isDirectory() ? listFiles(dir, p) : [p];
  }).sort();
}

t.test('Mintlify-format repository', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());

  await t.test('should resolve the configuration: $ref files, Mintlify keys, object navigation, root content', async (t) => {
    const snapshot = await openDirSnapshot(FIXTURE);
    const read = async (p: string) => (snapshot.files.has(p) ? Buffer.from(await snapshot.read(p)).toString('utf8') : undefined);
    const { config, files } = await loadConfig((await read('docs.json'))!, read, location, { hasDocsFolder: false });
    t.same([...files.keys()], ['docs.json', 'config/navigation.json', 'config/api-tab.json', 'config/redirects.json']);
    t.same({ theme: config.theme, contentRoot: config.contentRoot, colors: config.colors, favicon: config.seo?.favicon, description: config.seo?.description }, {
      theme: 'slate', contentRoot: '',
      colors: { primary: '#0D9373', light: '#07C983', dark: '#0D9373', logo: { light: '/logo/light.svg', dark: '/logo/dark.svg', href: 'https://acme.example' } },
      favicon: '/favicon.svg', description: "Acme's developer documentation",
    });
    t.same(config.navbar, {
      links: [{ label: 'Support', href: 'mailto:help@acme.example', icon: 'envelope' }, { label: 'Status', href: 'https://status.acme.example' }],
      primaryCta: { label: 'Dashboard', href: 'https://dashboard.acme.example', style: 'solid', external: true },
    });
    t.same(config.footer, {
      style: 'columns',
      social: { x: 'https://x.com/acme', github: 'https://github.com/acme', hackernews: 'https://news.ycombinator.com/user?id=acme' },
      links: [{ title: 'Company', items: [{ label: 'Blog', href: 'https://acme.example/blog' }] }],
    });
    t.same(config.redirects, [{ source: '/start', destination: '/quickstart', permanent: true }]);
    t.same(config.banner, { content: 'Acme v2 is out: [read the changelog](/changelog)', dismissible: true });
    t.same(config.typography, { fontFamily: 'Inter' });
    t.equal(config.iconLibrary, 'lucide');
    t.same(config.navigation, [
      {
        division: 'language', name: 'en', default: true, paths: [['tabs', 0], ['tabs', 1], ['tabs', 2]], items: [
          { division: 'tab', name: 'Guides', paths: [['groups', 0], ['groups', 1]], items: [
            { group: 'Get started', icon: 'rocket', pages: ['index', 'quickstart'] },
            { group: 'Guides', expanded: true, tag: 'NEW', pages: ['guides/install', 'guides/components', 'guides/interactive'] },
          ] },
          { division: 'tab', name: 'API reference', paths: [['groups', 0]], items: [{ group: 'API', root: 'api/overview', pages: ['api/auth'] }] },
          { division: 'tab', name: 'Blog', href: 'https://acme.example/blog', paths: [], items: [] },
        ],
      },
      { division: 'language', name: 'fr', paths: [['tabs', 0]], items: [{ division: 'tab', name: 'Guides', paths: [['groups', 0]], items: [{ group: 'Démarrer', pages: ['fr/index', 'fr/quickstart'] }] }] },
    ]);
  });

  await t.test('should build every page, publish root assets and leave repository files out', async (t) => {
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: 'https://acme.example', compiler, year: 2025 });
    t.same({ total: res.pagesTotal, failed: res.pagesFailed, errors: res.errors }, { total: 10, failed: 0, errors: [] });
    t.same(res.warnings, [
      'docs.json: theme: "luma" is a Mintlify theme; using the nearest theme, "slate"',
      'docs.json: contextual: ignored; every page has a Copy page action and a Markdown export',
      'docs.json: styling: ignored; not supported',
      'docs.json: integrations.ga4: ignored; third-party integrations are not supported; analytics are built in',
      // The link check on a repository as Mintlify authors keep it: a tile pointing at a page that does not exist.
      'guides/components.mdx:74:1: Unexpected link to /themes; expected a page, a file of the site or a redirect source',
    ]);
    const files = listFiles(out);
    t.same(files.filter((f) => f.endsWith('/index.html') || f === 'index.html'), [
      'api/auth/index.html', 'api/overview/index.html', 'changelog/index.html', 'fr/index.html', 'fr/quickstart/index.html',
      'guides/components/index.html', 'guides/install/index.html', 'guides/interactive/index.html', 'index.html', 'quickstart/index.html',
    ]);
    t.same(files.filter((f) => /\.(png|svg)$/.test(f)), ['favicon.svg', 'images/hero.png', 'logo/dark.svg', 'logo/light.svg']);
    t.same(fs.readFileSync(path.join(out, 'images/hero.png')), fs.readFileSync(path.join(FIXTURE, 'images/hero.png')));
    for (const f of files) t.notMatch(f, /README|CONTRIBUTING|PULL_REQUEST|drafts|snippets|\.draft|config\//, `${f} is no page or asset of the repository's own`);

    const home = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    t.match(home, '<div class="site-banner" role="note" data-pagefind-ignore="all">Acme v2 is out: <a href="/changelog">read the changelog</a></div>');
    t.match(home, '<a class="brand" href="https://acme.example"><img class="logo logo-light" src="/logo/light.svg" alt="Acme"/><img class="logo logo-dark" src="/logo/dark.svg" alt="Acme"/></a>');
    t.match(home, '<link rel="icon" href="/favicon.svg"/>');
    t.match(home, '<a class="cta" data-style="solid" href="https://dashboard.acme.example" target="_blank" rel="noopener">Dashboard</a>');
    t.match(home, '<nav class="header-tabs" aria-label="Sections"><a href="/" aria-current="true">Guides</a><a href="/api/overview">API reference</a><a href="https://acme.example/blog" target="_blank" rel="noopener">Blog</a></nav>');
    t.match(home, '<ul><li><a href="/" aria-current="true">English</a></li><li><a href="/fr">Français</a></li></ul>');
    t.match(home, '<a href="https://status.acme.example">Status</a>');
    t.match(home, 'data-platform="hackernews"');
    t.match(home, '<img src="/images/hero.png" alt="Hero" class="block dark:hidden rounded-xl"/>');
    // fonts.family "Inter" is served from the site: its stylesheet comes before the theme's.
    t.match(home, /<link rel="stylesheet" href="\/_folio\/fonts-[0-9a-f]{16}\.css"\/><link rel="stylesheet" href="\/_folio\/[^"]+"\/>/);
    // The Tailwind classes of the pages, and only those, in a stylesheet every page links.
    const sheet = /<link rel="stylesheet" href="\/(_folio\/utilities-[0-9a-f]{12}\.css)"\/>/.exec(home)?.[1];
    t.ok(sheet, 'the utilities stylesheet is linked');
    const css = fs.readFileSync(path.join(out, sheet!), 'utf8');
    t.match(css, '.dark\\:hidden:where([data-mode=dark], [data-mode=dark] *) {\n  display: none !important;\n}');
    t.match(css, '.dark\\:block:where([data-mode=dark], [data-mode=dark] *) {\n  display: block !important;\n}');
    t.match(css, '.rounded-xl {');
    t.notMatch(css, '.flex {');
    t.match(fs.readFileSync(path.join(out, 'fr/index.html'), 'utf8'), `href="/${sheet}"`);
    // The sidebar of a page holds its own tab only.
    t.match(home, '<details open><summary><p class="nav-group-title">Guides<span class="nav-tag">NEW</span></p></summary>', 'expanded: true folds, open');
    t.match(home, /<p class="nav-group-title"><svg class="icon nav-icon" data-icon="rocket" [^>]*><use href="#nav-icon-sprite-rocket"><\/use><\/svg>Get started<\/p>/, 'a group icon');
    t.match(home, /<a href="\/quickstart"><svg class="icon nav-icon" data-icon="book-open" [^>]*><use href="#nav-icon-sprite-book-open"><\/use><\/svg>Quickstart<\/a>/, 'a page icon from frontmatter');
    t.match(home, '<symbol id="nav-icon-sprite-book-open" viewBox="0 0 24 24"', 'its symbol is in the page');
    t.notMatch(home, 'Authentication');
    const auth = fs.readFileSync(path.join(out, 'api/auth/index.html'), 'utf8');
    t.match(auth, '<a href="/">Guides</a><a href="/api/overview" aria-current="true">API reference</a>');
    t.match(auth, '<a class="nav-group-title" href="/api/overview">API</a>');
    // Previous/next cross tabs but not languages: the last English page leads nowhere further.
    t.same([...auth.matchAll(/<a class="pager-(prev|next)" href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`), ['prev /api/overview'], 'a group root page is read before its pages');
    const overview = fs.readFileSync(path.join(out, 'api/overview/index.html'), 'utf8');
    t.same([...overview.matchAll(/<a class="pager-(prev|next)" href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`), ['prev /guides/interactive', 'next /api/auth'], 'across tabs');
    t.notMatch(auth, 'Get started');
    const fr = fs.readFileSync(path.join(out, 'fr/index.html'), 'utf8');
    t.match(fr, '<summary aria-label="Language: Français">');
    t.match(fr, '<nav class="header-tabs" aria-label="Sections"><a href="/fr" aria-current="true">Guides</a></nav>');
    t.match(fs.readFileSync(path.join(out, 'quickstart/index.html'), 'utf8'), 'Remember to <strong>save</strong>.');
    t.same(JSON.parse(fs.readFileSync(path.join(out, '_redirects.json'), 'utf8')), [{ source: '/start', destination: '/quickstart', status: 308 }]);
    // Mintlify's components, icons by name, JSX titles and unbraced fence options, unchanged.
    const components = fs.readFileSync(path.join(out, 'guides/components/index.html'), 'utf8');
    for (const marker of ['class="columns"', 'class="field"', 'class="expandable-body"', 'class="code-group api-example"', 'class="tree file-tree"',
      'class="color-palette"', 'class="prompt-body"', 'class="tile-preview"', 'class="frame-body"', 'data-has-focus', '<svg class="icon"']) {
      t.match(components, marker, marker);
    }
    t.equal(components.match(/class="line focused"/g)?.length, 3, 'focus=2,4,5 focuses three lines');
    t.match(components, 'Install <code>acme</code>');
    // Hooks without an import, in the page and in a .jsx snippet, and their Tailwind classes.
    const interactive = fs.readFileSync(path.join(out, 'guides/interactive/index.html'), 'utf8');
    t.match(interactive, '<p class="text-sm italic">Hello, <!-- -->reader<!-- -->.</p>'.replace(/<!-- -->/g, ''));
    t.match(interactive, 'Clicked 3 times');
    for (const cls of ['.grid-cols-2 {', '.font-semibold {', '.italic {', '.dark\\:bg-zinc-900:where']) t.match(css, cls, cls);
  });

  await t.test('should count a listed page that fails to compile as a failed page, not a configuration error', async (t) => {
    const dir = tempDir();
    makeRepo(dir, {
      'docs.json': JSON.stringify({ name: 'A', navigation: { tabs: [{ tab: 'Docs', pages: ['index', 'broken'] }] } }),
      'index.mdx': '# Home\n',
      'broken.mdx': 'Text <Oops\n',
    });
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://a.example', compiler, year: 2025 });
    t.same({ total: res.pagesTotal, ok: res.pagesSuccess, failed: res.pagesFailed, failedPaths: res.errors.map((e) => e.sourcePath) }, { total: 2, ok: 1, failed: 1, failedPaths: ['broken.mdx'] });
    t.notMatch(fs.readFileSync(path.join(out, 'index.html'), 'utf8'), 'broken');
    // A path that names no file at all is still a configuration error.
    commitFiles(dir, { 'docs.json': JSON.stringify({ name: 'A', navigation: { tabs: [{ tab: 'Docs', pages: ['index', 'nope'] }] } }) });
    await t.rejects(build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://a.example', compiler }), {
      code: 'invalid_config', message: 'docs.json: navigation.tabs[0].pages[1]: Unexpected "nope"; expected the path of a page in the repository',
    });
  });
});

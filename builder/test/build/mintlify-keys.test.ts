import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { build } from '../../src/build.ts';
import type { Compiler } from '../../src/compile/compiler.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { loadConfig } from '../../src/config/parse-config.ts';
import { openDirSnapshot } from '../../src/git/repo-snapshot.ts';
import { searchFiltersOf } from '../../src/nav/dimensions.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { searchDocument } from '../../src/outputs/search-shards.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

/** A repository using every docs.json key and navigation form Mintlify defines (see its docs.json). */
const FIXTURE = fileURLToPath(new URL('../fixtures/mintlify-keys/', import.meta.url));
const location = { siteUrl: 'https://lantern.example', basePath: '' };

/** The warnings the fixture builds with: each a key that changes nothing here yet. */
const FIXTURE_WARNINGS = [
  'docs.json: search: ignored; search settings are not supported yet',
  'docs.json: errors: ignored; the 404 page is built in',
  'docs.json: thumbnails: ignored; social images are not generated',
  'docs.json: metadata: ignored; page timestamps are not shown yet',
  'docs.json: variables: ignored; variables are not substituted in pages yet',
  'docs.json: markdown: ignored; Markdown exports are built in',
  'docs.json: seo.paths: ignored; per-folder meta tags are not applied yet; seo.metatags apply to every page',
  'docs.json: seo.organization: ignored; structured data is not emitted yet',
  'docs.json: banner.type: ignored; the banner uses the accent colour',
  'docs.json: banner.color: ignored; the banner uses the accent colour',
  'docs.json: navigation.directory: ignored; directory listings on group root pages are not rendered yet (and 1 more place)',
  'docs.json: navigation.languages[0].banner: ignored; the site-wide banner applies to every language',
  'docs.json: navigation.languages[0].tabs[0].align: ignored; tabs are laid out in order',
];

/** A compiler that must not be called: the configuration is checked before any page compiles. */
function refusingCompiler(t: Test): Compiler {
  return {
    compile: async () => { t.fail('a page was compiled'); return []; },
    close: async () => undefined,
  };
}

const read = (dir: string, p: string) => fs.readFileSync(path.join(dir, p), 'utf8');
/** The header's tab row, icons written `<svg/>`. */
const headerTabs = (html: string) => /<nav class="header-tabs".*?<\/nav>/s.exec(html)?.[0].replace(/<svg[^>]*>.*?<\/svg>/gs, '<svg/>');
const sidebarNav = (html: string) => /<nav class="sidebar-nav".*?<\/nav>/s.exec(html)?.[0];

t.test('Mintlify keys', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());

  await t.test('should build a repository using every Mintlify key with 0 errors and a warning per key not applied', async (t) => {
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir: FIXTURE }, store: createLocalDirStore(out), siteUrl: location.siteUrl, compiler, year: 2026 });
    t.same({ total: res.pagesTotal, failed: res.pagesFailed, errors: res.errors }, { total: 10, failed: 0, errors: [] });
    t.same(res.warnings, FIXTURE_WARNINGS);

    t.test('should draw a tab with a menu as a dropdown of its items, each leading to its first page', async (t) => {
      const beam = read(out, 'beam/overview/index.html');
      t.equal(headerTabs(beam), '<nav class="header-tabs" aria-label="Sections"><a href="/">Guides</a>'
        + '<details class="tab-menu"><summary aria-current="true">Products<svg/></summary><ul>'
        + '<li><a href="/beam/overview" aria-current="true"><svg/><span class="tab-menu-text"><span class="tab-menu-title">Beam</span><span class="tab-menu-description">The light source and its settings</span></span></a></li>'
        + '<li><a href="/lens/overview"><svg/><span class="tab-menu-text"><span class="tab-menu-title">Lens</span><span class="tab-menu-description">Optics that focus the beam</span></span></a></li>'
        + '<li><a href="https://store.example.org" target="_blank" rel="noopener"><span class="tab-menu-text"><span class="tab-menu-title">Parts store</span><span class="tab-menu-description">Spare parts</span></span></a></li>'
        + '</ul></details><a href="/archive/notes">Archive</a></nav>');
      t.equal(sidebarNav(beam), '<nav class="sidebar-nav" aria-label="Documentation"><ul><li class="nav-group"><a class="nav-group-title" href="/beam/overview" aria-current="page">Beam</a><ul>'
        + '<li><a href="/beam/overview" aria-current="page">Beam overview</a></li><li><a href="/beam/setup">Beam setup</a></li></ul></li></ul></nav>');
      // The selected menu item fills the sidebar; the tab row marks the other item in the dropdown.
      const lens = read(out, 'lens/overview/index.html');
      t.match(headerTabs(lens), '<li><a href="/lens/overview" aria-current="true">');
      t.equal(sidebarNav(lens), '<nav class="sidebar-nav" aria-label="Documentation"><ul><li><a href="/lens/overview" aria-current="page">Lens overview</a></li></ul></nav>');
      // Elsewhere the menu tab is a closed dropdown, not the current tab.
      t.match(headerTabs(read(out, 'index.html')), '<a href="/" aria-current="true">Guides</a><details class="tab-menu"><summary>Products<svg/></summary>');
    });

    t.test('should open isDefaultOpen groups, lead each group to its first page (interaction.drilldown) and expand three-digit colours', async (t) => {
      const home = read(out, 'index.html');
      t.match(home, '<li class="nav-group nav-group-toggle"><details open><summary><a class="nav-group-title" href="/deeper/tuning">Going deeper</a>');
      t.match(home, '<li class="nav-group nav-group-toggle"><details><summary><a class="nav-group-title" href="/usage/basics">Everyday use</a>');
      t.match(home, '<li class="nav-group"><a class="nav-group-title" href="/" aria-current="page">Start here</a>', 'a group holding the current page first');
      t.match(home, '#22aa66');
      t.notMatch(home, '#2a6;');
    });
  });

  await t.test('should weigh boosted pages in search and leave unsearchable ones out', async (t) => {
    const snapshot = await openDirSnapshot(FIXTURE);
    const readText = async (p: string) => (snapshot.files.has(p) ? Buffer.from(await snapshot.read(p)).toString('utf8') : undefined);
    const { config } = await loadConfig((await readText('docs.json'))!, readText, location, { hasDocsFolder: false });
    const pages = [...snapshot.files.keys()].filter((p) => p.endsWith('.mdx')).map((p) => ({ sourcePath: p, urlPath: p === 'index.mdx' ? '/' : `/${p.replace(/\.mdx$/, '').replace(/\/index$/, '')}` }));
    const scopes = searchFiltersOf(config.navigation, pages, '')!;
    t.same(pages.map((p) => [p.urlPath, scopes.weight!(p.urlPath) ?? null, scopes.excluded!(p.urlPath)]).sort(), [
      ['/', 3, false],
      ['/archive/notes', null, true], // searchable: false on its tab
      ['/beam/overview', null, false],
      ['/beam/setup', null, false],
      ['/deeper/tuning', 0.5, false], // the nested group's own boost wins
      ['/fr', null, false],
      ['/install', 3, false],
      ['/internal/runbook', null, false], // hidden, but searchable: true
      ['/lens/overview', null, false],
      ['/usage/basics', null, false],
    ]);
    const page = (urlPath: string) => ({ urlPath, title: 'T', bodyHtml: '<p>Body</p>' });
    t.equal(searchDocument(page('/install'), scopes), '<!doctype html><html lang="en"><head><title>T</title></head><body><main data-pagefind-body>'
      + '<span data-pagefind-filter="scope[data-value]" data-value="en"></span><span data-pagefind-meta="path[data-value]" data-value="/install"></span>'
      + '<span data-pagefind-meta="boost[data-value]" data-value="3"></span><h1 data-pagefind-meta="title">T</h1><div data-pagefind-weight="3"><p>Body</p></div></main></body></html>');
    // A page's own frontmatter boost wins over its group's.
    t.match(searchDocument({ ...page('/install'), frontmatter: { boost: 5 } }, scopes), '<div data-pagefind-weight="5"><p>Body</p></div>');
    t.match(searchDocument({ ...page('/usage/basics'), frontmatter: { boost: 2 } }, scopes), '<div data-pagefind-weight="2"><p>Body</p></div>');
    t.equal(searchDocument(page('/archive/notes'), scopes), '<!doctype html><html lang="en"><head><title>T</title></head><body><main data-pagefind-body>'
      + '<span data-pagefind-filter="scope[data-value]" data-value="en"></span><span data-pagefind-meta="path[data-value]" data-value="/archive/notes"></span>'
      + '<span data-folio-unsearchable></span></main></body></html>');
  });

  await t.test('should build despite a link leaving the repository in a folder the site does not publish, and fail on one it publishes', async (t) => {
    const dir = tempDir();
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'SKILL.md'), '# A skill\n');
    fs.mkdirSync(path.join(dir, '.mintlify'));
    fs.symlinkSync(outside, path.join(dir, '.mintlify/skills'));
    fs.symlinkSync(path.join(outside, 'SKILL.md'), path.join(dir, 'tools-notes.txt.bak'));
    const ok = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: location.siteUrl, compiler, year: 2026 });
    t.same({ total: ok.pagesTotal, errors: ok.errors }, { total: 10, errors: [] });

    fs.symlinkSync(path.join(outside, 'SKILL.md'), path.join(dir, 'skill.mdx'));
    const err = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: location.siteUrl, compiler, year: 2026 }).catch((e) => e);
    t.same({ kind: err.kind, code: err.code, message: err.message }, {
      kind: 'user', code: 'unsafe_path',
      message: `Symbolic link "skill.mdx" points to "${path.join(outside, 'SKILL.md')}", outside the repository; expected a link to a file inside it`,
    });
  });

  await t.test('should read page paths from the root when docs.json there names pages in its own docs/ folder', async (t) => {
    const dir = tempDir();
    writeFiles(dir, {
      'docs.json': JSON.stringify({ name: 'Root', navigation: { groups: [{ group: 'All', pages: ['index', 'docs/setup', 'docs/usage', 'README'] }] } }),
      'index.mdx': '# Home\n',
      // Listed in the navigation, the repository's README is a page, as on Mintlify; CONTRIBUTING stays out.
      'README.md': '# About\n',
      'CONTRIBUTING.md': '# Contributing\n',
      'docs/setup.mdx': '# Setup\n',
      'docs/usage.mdx': '# Usage\n',
    });
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: location.siteUrl, compiler, year: 2026 });
    t.same({ total: res.pagesTotal, errors: res.errors }, { total: 4, errors: [] });
    t.match(read(out, 'docs/setup/index.html'), '<a href="/docs/setup" aria-current="page">Setup</a>');
    t.match(read(out, 'README/index.html'), '<a href="/README" aria-current="page">About</a>');
    // contentRoot written in docs.json still wins: then the entries name no page, before any compiles.
    writeFiles(dir, { 'docs.json': JSON.stringify({ name: 'Root', contentRoot: 'docs/', navigation: { groups: [{ group: 'All', pages: ['index', 'docs/setup', 'docs/usage'] }] } }) });
    const err = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: location.siteUrl, compiler: refusingCompiler(t), year: 2026 }).catch((e) => e);
    t.same({ kind: err.kind, code: err.code, message: err.message }, {
      kind: 'user', code: 'invalid_config',
      message: [
        'docs.json: navigation.groups[0].pages[0]: Unexpected "index"; expected the path of a page in docs/',
        'docs.json: navigation.groups[0].pages[1]: Unexpected "docs/setup"; expected the path of a page in docs/',
        'docs.json: navigation.groups[0].pages[2]: Unexpected "docs/usage"; expected the path of a page in docs/',
      ].join('\n'),
    });
  });

  await t.test('should list at most 100 missing navigation entries, then count the rest, before compiling', async (t) => {
    const dir = tempDir();
    writeFiles(dir, {
      'docs.json': JSON.stringify({ name: 'Many', navigation: [{ group: 'G', pages: ['index', ...Array.from({ length: 150 }, (_, i) => `missing/p${i}`)] }] }),
      'docs/index.mdx': '# Home\n',
    });
    const err = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: location.siteUrl, compiler: refusingCompiler(t), year: 2026 }).catch((e) => e);
    const lines = (err.message as string).split('\n');
    t.equal(err.code, 'invalid_config');
    t.equal(lines.length, 101);
    t.equal(lines[0], 'docs.json: navigation[0].pages[1]: Unexpected "missing/p0"; expected the path of a page in docs/');
    t.equal(lines[99], 'docs.json: navigation[0].pages[100]: Unexpected "missing/p99"; expected the path of a page in docs/');
    t.equal(lines[100], 'docs.json: …and 50 more');
  });
});

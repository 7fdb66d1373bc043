import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';
import { VERSIONED_SITE as FILES } from '../helpers/versioned-site.ts';

t.teardown(closePagefind);

/** Every file under `dir`, relative, sorted. */
function listFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, p) : [p];
  }).sort();
}

const html = (out: string, urlPath: string) => fs.readFileSync(path.join(out, urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`), 'utf8');
const all = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1] ?? m[0]);
/** The shell's facts a reader or a crawler relies on. */
function facts(text: string) {
  return {
    lang: /<html lang="([^"]+)"/.exec(text)?.[1],
    canonical: /<link rel="canonical" href="([^"]+)"/.exec(text)?.[1],
    hreflang: all(text, /<link rel="alternate" hreflang="([^"]+" href="[^"]+)"/g),
    note: /<p class="fallback-note"[^>]*><a href="([^"]+">[^<]+)<\/a>/.exec(text)?.[1],
    scope: /<meta name="folio-scope" content="([^"]+)"/.exec(text)?.[1].replace(/&quot;/g, '"'),
    sidebar: all(text, /<nav class="sidebar-nav"[\s\S]*?<\/nav>/g).flatMap((nav) => all(nav, /<a [^>]*href="([^"]+)"/g)),
    switchers: all(text, /<details class="switcher" data-control="(\w+)"/g),
    options: all(text, /<details class="switcher"[\s\S]*?<\/details>/g).map((s) => all(s, /<a href="([^"]+)"/g).join(' ')),
  };
}

t.test('versions and languages', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  writeFiles(dir, FILES);
  const out = tempDir();
  const store = createLocalDirStore(out);
  const res = await build({ source: { kind: 'dir', dir }, store, siteUrl: 'https://acme.example', compiler, year: 2026 });

  await t.test('should compile each page once and serve the missing ones by fallback', async (t) => {
    t.same({ total: res.pagesTotal, failed: res.pagesFailed, compiled: res.compiled }, { total: 5, failed: 0, compiled: 5 });
    const shells = listFiles(out).filter((f) => !f.startsWith('_') && (f === 'index.html' || f.endsWith('/index.html')));
    t.same(shells, [
      'fr/guides/auth/index.html', 'fr/guides/install/index.html', 'fr/index.html',
      'fr/v2/guides/auth/index.html', 'fr/v2/guides/install/index.html', 'fr/v2/index.html',
      'guides/auth/index.html', 'guides/install/index.html', 'index.html',
      'v2/guides/auth/index.html', 'v2/guides/install/index.html', 'v2/index.html',
    ]);
  });

  await t.test('should give a default page its language, hreflang links and switchers', async (t) => {
    t.same(facts(html(out, '/')), {
      lang: 'en', canonical: 'https://acme.example/',
      hreflang: ['en" href="https://acme.example/', 'fr" href="https://acme.example/fr', 'x-default" href="https://acme.example/'],
      note: undefined, scope: '{"scope":"en/v3","prefix":""}',
      sidebar: ['/', '/guides/install', '/guides/auth'],
      switchers: ['language', 'version'],
      options: ['/ /fr', '/ /v2'],
    });
  });

  await t.test('should mark a page missing in a version and point its canonical at the page shown', async (t) => {
    const shell = html(out, '/v2/guides/auth');
    t.same(facts(shell), {
      lang: 'en', canonical: 'https://acme.example/guides/auth', hreflang: [],
      note: '/guides/auth">This page does not exist in v2; it is shown from v3.', scope: '{"scope":"en/v2","prefix":"/v2"}',
      sidebar: ['/v2', '/v2/guides/install', '/v2/guides/auth'],
      switchers: ['language', 'version'],
      options: ['/v2/guides/auth /fr/v2/guides/auth', '/guides/auth /v2/guides/auth'],
    });
    t.match(shell, /<h1>Auth<\/h1>/);
    t.match(shell, /href="\/guides\/auth\.md" data-copy-markdown/, 'the Copy page action exports the page shown');
  });

  await t.test('should show a page missing in a language in the default one, with the words of the reader language', async (t) => {
    const shell = html(out, '/fr/v2/guides/install');
    t.same(facts(shell), {
      lang: 'fr', canonical: 'https://acme.example/v2/guides/install', hreflang: [],
      note: "/v2/guides/install\">Cette page n'est pas encore disponible en Français ; elle est affichée en English.",
      scope: '{"scope":"fr/v2","prefix":"/fr/v2"}',
      sidebar: ['/fr/v2', '/fr/v2/guides/install', '/fr/v2/guides/auth'],
      switchers: ['language', 'version'],
      options: ['/v2/guides/install /fr/v2/guides/install', '/fr/guides/install /fr/v2/guides/install'],
    });
    t.match(shell, /<h1>Install v2<\/h1>/);
    t.match(shell, /<span class="search-label">Rechercher<\/span>/);
    t.same(facts(html(out, '/fr/v2')).note, "/fr\">Cette page n'existe pas dans la version v2 ; elle est affichée depuis v3.");
  });

  await t.test('should write llms.txt per language and version, fallbacks linking to the page shown', async (t) => {
    t.equal(fs.readFileSync(path.join(out, 'llms.txt'), 'utf8'), [
      '# Acme', '', '## Docs', '',
      '- [Home](https://acme.example/index.md)',
      '- [Install](https://acme.example/guides/install.md)',
      '- [Auth](https://acme.example/guides/auth.md)', '',
    ].join('\n'));
    t.equal(fs.readFileSync(path.join(out, 'fr/v2/llms.txt'), 'utf8'), [
      '# Acme', '', '## Docs', '',
      '- [Accueil](https://acme.example/fr.md)',
      '- [Install v2](https://acme.example/v2/guides/install.md)',
      '- [Auth](https://acme.example/guides/auth.md)', '',
    ].join('\n'));
  });

  await t.test('should index each written page with its language and version as search filters', async (t) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(out, '_pagefind/shards.json'), 'utf8')) as { shards: { pages: number }[] };
    t.same(manifest.shards.map((s) => s.pages), [5], 'fallbacks are not indexed twice');
    const filterFiles = listFiles(path.join(out, '_pagefind')).filter((f) => f.endsWith('.pf_filter'));
    t.ok(filterFiles.length > 0, 'the bundle has filter indexes');
  });

  await t.test('should compile only what differs when a version is added, copies once per build', async (t) => {
    const config = JSON.parse(FILES['docs.json']);
    config.navigation.versions.push({ version: 'v1' });
    writeFiles(dir, {
      'docs.json': JSON.stringify(config),
      // An unchanged copy (same bytes, so the same cache entry) and a page of its own.
      'docs/v1/guides/auth.mdx': FILES['docs/guides/auth.mdx'],
      'docs/v1/index.mdx': '---\ntitle: Home v1\n---\n\nOld home.\n',
    });
    const again = await build({ source: { kind: 'dir', dir }, store, siteUrl: 'https://acme.example', compiler, year: 2026 });
    t.same({ total: again.pagesTotal, failed: again.pagesFailed, compiled: again.compiled }, { total: 7, failed: 0, compiled: 1 });
    t.same(facts(html(out, '/v1/guides/install')).note, '/guides/install">This page does not exist in v1; it is shown from v3.');
    t.same(facts(html(out, '/v1/guides/auth')).note, undefined, 'the copy is a page of v1');
    t.same(facts(html(out, '/v1/guides/auth')).canonical, 'https://acme.example/v1/guides/auth');
    const cold = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: 'https://acme.example', compiler, year: 2026 });
    t.same({ total: cold.pagesTotal, failed: cold.pagesFailed, compiled: cold.compiled }, { total: 7, failed: 0, compiled: 6 }, 'the copy compiles once in a cold build');
  });
});

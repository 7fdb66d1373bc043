import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import t, { type Test } from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);
const require = createRequire(import.meta.url);

/** Builds a one-page site whose docs.json has `fonts`; returns the output folder and the build's warnings. */
async function buildWithFonts(t: Test, fonts: unknown): Promise<{ out: string; warnings: string[] }> {
  const dir = tempDir();
  writeFiles(dir, { 'docs.json': JSON.stringify({ name: 'Fonts', fonts, navigation: { pages: ['index'] } }), 'index.mdx': '# Hello\n\nBody text, **bold**.\n' });
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://fonts.test', year: 2026 });
  t.same(res.errors, []);
  return { out, warnings: res.warnings };
}

const fontsSheet = (html: string) => /<link rel="stylesheet" href="\/(_folio\/fonts-[0-9a-f]{16}\.css)"\/>/.exec(html)?.[1];

t.test('Fonts named in docs.json', async (t) => {
  await t.test('should serve a listed family from the site, and load a font file given by URL from its host', async (t) => {
    const { out, warnings } = await buildWithFonts(t, { family: 'Source Sans 3', heading: { family: 'Brand Serif', source: 'https://cdn.brand.example/serif.woff2', format: 'woff2', weight: 700 } });
    t.same(warnings, []);
    const home = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    const sheet = fontsSheet(home);
    t.ok(sheet, 'the font stylesheet is linked');
    t.ok(home.indexOf(sheet!) < home.indexOf('<link rel="stylesheet"', home.indexOf(sheet!)), 'linked before the theme\'s stylesheet');
    t.match(home, "--folio-font:'Source Sans 3', var(--theme-font)", 'the family first (quoted: it has a word starting with a digit), the theme\'s fonts as fallback');
    const css = fs.readFileSync(path.join(out, sheet!), 'utf8');
    const version = (require('@fontsource/source-sans-3/package.json') as { version: string }).version;
    t.same(css.trim().split('\n'), [
      ...[400, 600, 700].map((w) => `@font-face{font-family:'Source Sans 3';font-style:normal;font-display:swap;font-weight:${w};src:url(fonts/${version}/source-sans-3-latin-${w}-normal.woff2) format('woff2')}`),
      "@font-face{font-family:'Brand Serif';font-style:normal;font-display:swap;font-weight:700;src:url(\"https://cdn.brand.example/serif.woff2\") format('woff2')}",
    ]);
    const files = fs.readdirSync(path.join(out, '_folio/fonts', version)).sort();
    t.same(files, ['source-sans-3-latin-400-normal.woff2', 'source-sans-3-latin-600-normal.woff2', 'source-sans-3-latin-700-normal.woff2'], 'latin, three weights, woff2 only');
    const packaged = path.join(path.dirname(require.resolve('@fontsource/source-sans-3/package.json')), 'files', files[0]!);
    t.same(fs.readFileSync(path.join(out, '_folio/fonts', version, files[0]!)), fs.readFileSync(packaged));
    const headers = JSON.parse(fs.readFileSync(path.join(out, '_headers.json'), 'utf8')) as Record<string, string>;
    t.match(headers['Content-Security-Policy'], "font-src 'self' data: https://cdn.brand.example", 'the font host is allowed');
  });

  await t.test('should warn about a family that is not served, naming the ones that are, and refuse unsafe font URLs', async (t) => {
    const { out, warnings } = await buildWithFonts(t, {
      family: 'Comic Neue',
      heading: { family: 'Evil', source: 'http://plain.example/evil.woff2' },
      body: { family: "Body');}*{display:none", source: 'https://cdn.example/a).woff2' },
    });
    t.same(warnings, [
      'docs.json: fonts.family: "Comic Neue" is not served from the site; it applies where the reader has it installed, else the theme\'s fonts. Served families: Inter, Geist, Roboto, Open Sans, Lato, Poppins, Source Sans 3, IBM Plex Sans, JetBrains Mono, Fira Code; or give its file with fonts.source',
      'docs.json: fonts.heading.source: ignored; only https URLs without quotes, spaces or brackets load',
      'docs.json: fonts.body.source: ignored; only https URLs without quotes, spaces or brackets load',
    ]);
    const home = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    t.equal(fontsSheet(home), undefined, 'nothing to serve: no font stylesheet');
    t.notOk(fs.existsSync(path.join(out, '_folio/fonts')));
    const headers = JSON.parse(fs.readFileSync(path.join(out, '_headers.json'), 'utf8')) as Record<string, string>;
    t.notMatch(headers['Content-Security-Policy'], 'plain.example');
  });

  await t.test('should keep a family name from ending its @font-face rule', async (t) => {
    const { out } = await buildWithFonts(t, { family: 'Inter', body: { family: "X'}body{display:none}\n", source: 'https://cdn.example/x.woff2' } });
    const css = fs.readFileSync(path.join(out, fontsSheet(fs.readFileSync(path.join(out, 'index.html'), 'utf8'))!), 'utf8');
    t.match(css, "@font-face{font-family:'Xbodydisplaynone';font-style:normal;font-display:swap;src:url(\"https://cdn.example/x.woff2\")}");
    t.equal(css.split('\n').filter(Boolean).length, 4, 'three Inter weights and one file by URL, nothing else');
  });

  await t.test('should load the served family in the browser from the site itself', async (t) => {
    const { out } = await buildWithFonts(t, { family: 'Inter', heading: { family: 'Source Sans 3' } });
    const { server, browser } = await browseStatic(t, out);
    const page = await browser.newPage();
    const fontRequests: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'font') fontRequests.push(r.url()); });
    await page.goto(`${server.origin}/`);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      const faces = await document.fonts.load('400 16px Inter');
      const h1 = document.querySelector('h1');
      return { faces: faces.map((f) => `${f.family} ${f.weight} ${f.status}`), body: getComputedStyle(document.body).fontFamily.split(',')[0], heading: h1 ? getComputedStyle(h1).fontFamily.split(',')[0] : '' };
    });
    t.same(loaded.faces, ['Inter 400 loaded']);
    t.equal(loaded.body, 'Inter');
    t.equal(loaded.heading, '"Source Sans 3"', 'a family whose name has a digit applies to headings');
    t.ok(fontRequests.length > 0 && fontRequests.every((u) => u.startsWith(`${server.origin}/_folio/fonts/`)), 'fetched from the site');
  });
});

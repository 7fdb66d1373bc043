import t from 'tap';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientAssets } from '../../src/node/build-client-assets.ts';
import { createRequire } from 'node:module';
import { MERMAID_DIR } from '../../src/shared/mermaid-dir.ts';
import { TEMPLATE_VERSION } from '../../src/node/template-version.ts';
import { THEMES } from '../../src/node/theme-traits.ts';

t.test('build-client-assets', async (t) => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'folio-cache-'));
  // What an interrupted build leaves: the version folder without its manifest.
  await mkdir(join(cacheDir, TEMPLATE_VERSION));
  await writeFile(join(cacheDir, TEMPLATE_VERSION, 'client-partial.js'), '');
  const first = await mkdtemp(join(tmpdir(), 'folio-out-'));
  const built = await buildClientAssets(first, { cacheDir });

  t.test('should emit one content-hashed script, its on-demand assistant chunk and one stylesheet per theme under _folio/', async (t) => {
    t.match(built.assets.js, /^\/_folio\/client-[\w-]{8}\.js$/);
    t.same(Object.keys(built.assets.css).sort(), [...THEMES].sort());
    for (const theme of THEMES) t.match(built.assets.css[theme], new RegExp(`^/_folio/theme-${theme}-[\\w-]{8}\\.css$`));
    const assistant = built.files.filter((f) => /^assistant-[\w-]{8}\.js$/.test(f));
    t.equal(assistant.length, 1);
    const js = await readFile(join(first, built.assets.js), 'utf8');
    t.match(js, `import(\`./${assistant[0]}\`)`, 'loaded relative to the script, only when opened');
    const urls = [built.assets.js, ...Object.values(built.assets.css)].map((u) => u.slice('/_folio/'.length)).concat(assistant).sort();
    t.same(built.files.filter((f) => !f.startsWith(`${MERMAID_DIR}/`)), urls);
    t.same((await readdir(join(first, '_folio'))).sort(), [...urls, MERMAID_DIR].sort());
  });

  t.test('should publish Mermaid\'s minified build beside the script, without source maps', async (t) => {
    const mermaid = built.files.filter((f) => f.startsWith(`${MERMAID_DIR}/`));
    t.ok(mermaid.includes(`${MERMAID_DIR}/mermaid.esm.min.mjs`));
    t.ok(mermaid.length > 50, `${mermaid.length} files: the entry and its chunks`);
    t.same(mermaid.filter((f) => !f.endsWith('.mjs')), []);
    const entry = await readFile(join(first, '_folio', MERMAID_DIR, 'mermaid.esm.min.mjs'), 'utf8');
    for (const [, chunk] of entry.matchAll(/from"\.\/(chunks\/[^"]+)"/g)) t.ok(mermaid.includes(`${MERMAID_DIR}/${chunk}`), chunk);
    const { version } = createRequire(import.meta.url)('mermaid/package.json') as { version: string };
    t.equal(MERMAID_DIR, `mermaid-${version}`, 'the folder names the installed version');
  });

  t.test('should keep browser code free of Node and ship each theme its own tokens', async (t) => {
    const js = await readFile(join(first, built.assets.js), 'utf8');
    t.notMatch(js, /from\s*["']node:|require\(/);
    t.match(js, /folio-search/, 'the search reads its bundle list from the meta tag');
    const cedar = await readFile(join(first, built.assets.css.cedar), 'utf8');
    const terminal = await readFile(join(first, built.assets.css.terminal), 'utf8');
    t.match(cedar, /Charter/);
    t.notMatch(cedar, /JetBrains Mono/);
    t.match(terminal, /JetBrains Mono/);
    t.match(terminal, /\.code-block/, 'the base is inlined into every theme file');
  });

  t.test('should reuse the build of this template version', async (t) => {
    const manifest = JSON.parse(await readFile(join(cacheDir, TEMPLATE_VERSION, 'folio-assets.json'), 'utf8'));
    t.same(manifest, built);
    const second = await mkdtemp(join(tmpdir(), 'folio-out-'));
    const again = await buildClientAssets(second, { cacheDir });
    t.same(again, built);
    t.equal(await readFile(join(second, built.assets.js), 'utf8'), await readFile(join(first, built.assets.js), 'utf8'));
    t.same(await readdir(cacheDir), [TEMPLATE_VERSION], 'no second build folder');
    t.same((await readdir(join(cacheDir, TEMPLATE_VERSION))).sort(), [...built.files.filter((f) => !f.includes('/')), MERMAID_DIR, 'folio-assets.json'].sort(), 'the interrupted build was replaced');
  });
});

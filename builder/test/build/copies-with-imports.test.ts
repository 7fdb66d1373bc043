import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

// A page copied unchanged into each language's folder (one cache key) that imports a snippet by
// its root path, as Mintlify repositories do, and copies that import a sibling by a relative path
// (the same bytes name a different file from each folder).
const PAGE = '---\ntitle: Preview\n---\n\nimport { Host } from "/snippets/host.jsx";\n\n<Host />\n';
const RELATIVE = '---\ntitle: Notes\n---\n\nimport Part from "./part.mdx";\n\n<Part />\n';

t.test('copies of a page with imports', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  makeRepo(repo, {
    'docs.json': JSON.stringify({ name: 'Copies', navigation: { languages: [
      { language: 'en', groups: [{ group: 'Docs', pages: ['index', 'preview', 'notes'] }] },
      { language: 'es', groups: [{ group: 'Docs', pages: ['es/index', 'es/preview', 'es/notes'] }] },
      { language: 'fr', groups: [{ group: 'Docs', pages: ['fr/index', 'fr/preview'] }] },
    ] } }),
    'snippets/host.jsx': 'export const Host = () => <p>Shared host</p>;\n',
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'es/index.mdx': '---\ntitle: Inicio\n---\n\nInicio.\n',
    'fr/index.mdx': '---\ntitle: Accueil\n---\n\nAccueil.\n',
    'preview.mdx': PAGE, 'es/preview.mdx': PAGE, 'fr/preview.mdx': PAGE,
    'notes.mdx': RELATIVE, 'es/notes.mdx': RELATIVE,
    'part.mdx': 'English part.\n', 'es/part.mdx': 'Parte en español.\n',
  });
  const out = tempDir();
  const opts = (): BuildOptions => ({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(out), siteUrl: 'https://copies.example', compiler, year: 2025 });
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');

  await t.test('should compile a copy once when its imports resolve to the same files from every folder', async (t) => {
    const res = await build(opts());
    t.same({ ok: res.pagesSuccess, failed: res.pagesFailed }, { ok: 10, failed: 0 });
    // index ×3, preview once for its three copies, notes twice (each folder's part.mdx), part ×2
    t.equal(res.compiled, 8);
    for (const key of ['preview/index.html', 'es/preview/index.html', 'fr/preview/index.html']) t.match(read(key), '<p>Shared host</p>', key);
    t.match(read('notes/index.html'), 'English part.');
    t.match(read('es/notes/index.html'), 'Parte en español.');
  });

  await t.test('should compile nothing when nothing changed', async (t) => {
    for (let i = 0; i < 2; i++) t.equal((await build(opts())).compiled, 0, `no-change build ${i + 1}`);
  });

  await t.test('should compile every copy again when the snippet they share changes, and nothing else', async (t) => {
    commitFiles(repo, { 'snippets/host.jsx': 'export const Host = () => <p>Edited host</p>;\n' });
    const res = await build(opts());
    t.equal(res.compiled, 1, 'one compile for the three copies');
    for (const key of ['preview/index.html', 'es/preview/index.html', 'fr/preview/index.html']) t.match(read(key), '<p>Edited host</p>', key);
    t.equal((await build(opts())).compiled, 0);
  });

  await t.test('should compile only the copy whose relative import changed', async (t) => {
    commitFiles(repo, { 'es/part.mdx': 'Parte editada.\n' });
    const res = await build(opts());
    t.equal(res.compiled, 2, 'es/part and es/notes');
    t.match(read('es/notes/index.html'), 'Parte editada.');
    t.match(read('notes/index.html'), 'English part.');
    for (let i = 0; i < 2; i++) t.equal((await build(opts())).compiled, 0, `then nothing, build ${i + 1}: each copy keeps its own result`);
  });
});

import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** A page failing while it runs (in its own component) and one failing in a snippet's component. */
const REPO = {
  'docs.json': '{ "name": "Runtime" }\n',
  'index.mdx': page('Home', 'Welcome.'),
  'own.mdx': page('Own', 'export const Trail = () => <b>{route.name}</b>;\n\n<Trail />'),
  'uses.mdx': page('Uses', "import { Hut } from '/snippets/hut.jsx';\n\n<Hut />"),
  'snippets/hut.jsx': 'export const Hut = () => <Note>{hut.name}</Note>;\n',
};
const OWN = { sourcePath: 'own.mdx', line: 5, column: 32, message: 'Unexpected error while running the page: route is not defined' };
const USES = { sourcePath: 'uses.mdx', message: 'snippets/hut.jsx:1:33: Unexpected error while running the page: hut is not defined' };

t.test('pages failing while they run', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  makeRepo(dir, REPO);
  const opts: BuildOptions = { source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: 'https://runtime.example', compiler, year: 2026 };
  const counts = (res: Awaited<ReturnType<typeof build>>) => ({ ok: res.pagesSuccess, failed: res.pagesFailed, compiled: res.compiled });

  await t.test('should report each with its place', async (t) => {
    const res = await build(opts);
    t.same(counts(res), { ok: 1, failed: 2, compiled: 3 });
    t.same(res.errors, [OWN, USES]);
  });

  await t.test('should not compile them again when nothing changed', async (t) => {
    const res = await build(opts);
    t.same(counts(res), { ok: 1, failed: 2, compiled: 0 });
    t.same(res.errors, [OWN, USES]);
  });

  await t.test('should compile one again when a snippet it imports changes', async (t) => {
    commitFiles(dir, { 'snippets/hut.jsx': 'export const Hut = () => <Note>Ridge hut</Note>;\n' });
    const res = await build(opts);
    t.same(counts(res), { ok: 2, failed: 1, compiled: 1 });
    t.same(res.errors, [OWN]);
  });
});

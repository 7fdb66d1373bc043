import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { readManifest } from '../../src/state/manifest.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { SUMMARIES_KEY } from '../../src/state/page-summaries.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { BuildResult } from '../../src/types.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string, body: string, head = '') => `---\ntitle: ${title}\n---\n\n${head}# ${title}\n\n${body}\n`;
const NOTE = 'Shared **note**.\n';

/** A site with two good pages and three that fail: bad syntax, a broken snippet, a snippet that does not exist. */
const REPO = {
  'docs.json': '{ "name": "Failures" }\n',
  'docs/index.mdx': page('Home', 'Welcome.'),
  'docs/guides/install.mdx': page('Install', '<Note />', "import Note from '/snippets/note.mdx';\n\n"),
  'docs/guides/broken.mdx': page('Broken', 'Text <Oops'),
  'docs/guides/uses-bad.mdx': page('Uses bad', '<Bad />', "import Bad from '/snippets/bad.mdx';\n\n"),
  'docs/guides/uses-later.mdx': page('Uses later', '<Later />', "import Later from '/snippets/later.mdx';\n\n"),
  'snippets/note.mdx': NOTE,
  'snippets/bad.mdx': 'A {broken expression\n',
};

const BROKEN = {
  sourcePath: 'docs/guides/broken.mdx', line: 7, column: 11,
  message: 'Unexpected end of file in name, expected a name character such as letters, digits, `$`, or `_`; whitespace before attributes; or the end of the tag',
};
// The position is the snippet's (its line 1), not the page's: see the report of this change.
const USES_BAD = { sourcePath: 'docs/guides/uses-bad.mdx', line: 1, column: 21, message: 'Unexpected end of file in expression, expected a corresponding closing brace for `{`' };
const USES_LATER = { sourcePath: 'docs/guides/uses-later.mdx', line: 5, column: 1, message: 'Unexpected import of `/snippets/later.mdx`: snippets/later.mdx does not exist in the repository' };
const INSTALL = { sourcePath: 'docs/guides/install.mdx', line: 2, column: 1, message: 'Unexpected end of file in expression, expected a corresponding closing brace for `{`' };

t.test('failed pages', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  makeRepo(dir, REPO);
  const out = tempDir();
  const store = createLocalDirStore(out);
  const opts = (o: Partial<BuildOptions> = {}): BuildOptions => ({ source: { kind: 'dir', dir }, store, siteUrl: 'https://failures.example', compiler, year: 2025, ...o });
  const read = (key: string) => fs.readFileSync(path.join(out, key), 'utf8');
  const exists = (key: string) => fs.existsSync(path.join(out, key));

  await t.test('should report every failure of a first build, with its position', async (t) => {
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 2, failed: 3, compiled: 5 });
    t.same(res.errors, [BROKEN, USES_BAD, USES_LATER]);
    t.equal(exists('guides/broken/index.html'), false);
    t.match(read('guides/install/index.html'), '<p>Shared <strong>note</strong>.</p>');
  });

  await t.test('should report unchanged failures again without compiling them', async (t) => {
    const res = await build(opts());
    t.same({ ...counts(res), uploaded: res.uploaded }, { total: 5, ok: 2, failed: 3, compiled: 0, uploaded: 0 });
    t.same(res.errors, [BROKEN, USES_BAD, USES_LATER]);
  });

  await t.test('should read the failures from the page cache when the summaries are lost', async (t) => {
    fs.rmSync(path.join(out, SUMMARIES_KEY));
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 2, failed: 3, compiled: 0 });
    t.same(res.errors, [BROKEN, USES_BAD, USES_LATER]);
  });

  await t.test('should compile only the edited page of a site with failing pages', async (t) => {
    commitFiles(dir, { 'docs/index.mdx': page('Home', 'Welcome back.') });
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 2, failed: 3, compiled: 1 });
    t.same(res.errors, [BROKEN, USES_BAD, USES_LATER]);
    t.match(read('index.html'), 'Welcome back.');
  });

  await t.test('should keep the published version of a page broken by its snippet, and not compile it again', async (t) => {
    commitFiles(dir, { 'snippets/note.mdx': '{oops\n' });
    let res = await build(opts());
    t.same(counts(res), { total: 5, ok: 1, failed: 4, compiled: 1 });
    t.same(res.errors, [BROKEN, INSTALL, USES_BAD, USES_LATER]);
    t.match(read('guides/install/index.html'), '<p>Shared <strong>note</strong>.</p>', 'the previous version stays live');
    res = await build(opts());
    t.same(counts(res), { total: 5, ok: 1, failed: 4, compiled: 0 });
    t.same(res.errors, [BROKEN, INSTALL, USES_BAD, USES_LATER]);
    t.equal((await readManifest(store))!.pages['docs/guides/install.mdx'].failed, true);
    t.match(read('guides/install/index.html'), '<p>Shared <strong>note</strong>.</p>');
  });

  await t.test('should publish the cached good version again when the snippet is restored', async (t) => {
    commitFiles(dir, { 'snippets/note.mdx': NOTE });
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 2, failed: 3, compiled: 0 });
    t.equal((await readManifest(store))!.pages['docs/guides/install.mdx'].failed, undefined);
  });

  await t.test('should compile a failed page again when its imported snippet changes, and publish it once fixed', async (t) => {
    commitFiles(dir, { 'snippets/bad.mdx': 'A {"fixed"} expression\n' });
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 3, failed: 2, compiled: 1 });
    t.same(res.errors, [BROKEN, USES_LATER]);
    t.match(read('guides/uses-bad/index.html'), '<p>A fixed expression</p>');
  });

  await t.test('should compile a failed page again when the snippet it missed appears', async (t) => {
    commitFiles(dir, { 'snippets/later.mdx': 'Here now.\n' });
    const res = await build(opts());
    t.same(counts(res), { total: 5, ok: 4, failed: 1, compiled: 1 });
    t.same(res.errors, [BROKEN]);
    t.match(read('guides/uses-later/index.html'), '<p>Here now.</p>');
  });

  await t.test('should compile a failed page again when it is edited, and publish it once fixed', async (t) => {
    commitFiles(dir, { 'docs/guides/broken.mdx': page('Broken', 'Text <Oops') + '\n' });
    let res = await build(opts());
    t.same(counts(res), { total: 5, ok: 4, failed: 1, compiled: 1 });
    t.same(res.errors, [BROKEN], 'still broken at the same place');
    commitFiles(dir, { 'docs/guides/broken.mdx': page('Broken', 'Text, fixed.') });
    res = await build(opts());
    t.same(counts(res), { total: 5, ok: 5, failed: 0, compiled: 1 });
    t.same(res.errors, []);
    t.match(read('guides/broken/index.html'), 'Text, fixed.');
  });
});

t.test('a page over a limit', async (t) => {
  // A limit's failure depends on the machine's load, so it is never cached.
  const compiler = await createCompiler({ limits: { pageCpuMs: 3000, pageWallMs: 6000 } });
  t.teardown(() => compiler.close());
  const dir = tempDir();
  makeRepo(dir, { 'docs.json': '{ "name": "Loop" }\n', 'docs/index.mdx': page('Home', '{(() => { while (true) {} })()}') });
  const store = createLocalDirStore(tempDir());
  const opts: BuildOptions = { source: { kind: 'dir', dir }, store, siteUrl: 'https://loop.example', compiler, year: 2025 };
  const TIMEOUT = {
    sourcePath: 'docs/index.mdx',
    message: 'Page took too long to compile and run (an endless loop, or waiting on something that never comes); the limits are 3 s of CPU time and 6 s in all',
  };

  await t.test('should compile it again at the next build', async (t) => {
    let res = await build(opts);
    t.same({ ...counts(res), errors: res.errors }, { total: 1, ok: 0, failed: 1, compiled: 1, errors: [TIMEOUT] });
    res = await build(opts);
    t.same({ ...counts(res), errors: res.errors }, { total: 1, ok: 0, failed: 1, compiled: 1, errors: [TIMEOUT] });
  });
});

function counts(r: BuildResult) {
  return { total: r.pagesTotal, ok: r.pagesSuccess, failed: r.pagesFailed, compiled: r.compiled };
}

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { findDocsRoot, normalizeDocsRoot } from '../../src/config/docs-root.ts';
import { startDev } from '../../src/dev/dev-command.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const siteUrl = 'https://root.example';
const read = (dir: string, p: string) => fs.readFileSync(path.join(dir, p), 'utf8');
const caught = (fn: () => unknown) => { try { fn(); return undefined; } catch (e) { const err = e as { kind: string; code: string; message: string }; return { kind: err.kind, code: err.code, message: err.message }; } };

t.test('the docs root is the folder of docs.json', async (t) => {
  await t.test('should take the repository root when docs.json is there, even beside a docs/ folder holding another', async (t) => {
    t.equal(findDocsRoot(['docs.json', 'docs/docs.json', 'index.mdx']), '');
  });

  await t.test('should take the one folder holding docs.json, the shallowest when several do', async (t) => {
    t.equal(findDocsRoot(['README.md', 'docs/docs.json', 'docs/index.mdx']), 'docs/');
    t.equal(findDocsRoot(['site/docs.json', 'site/examples/demo/docs.json']), 'site/');
    t.equal(findDocsRoot(['packages/web/docs/docs.json']), 'packages/web/docs/');
  });

  await t.test('should leave out dot-folders and node_modules', async (t) => {
    t.equal(findDocsRoot(['.github/docs.json', 'node_modules/x/docs.json', 'a/b/docs.json']), 'a/b/');
  });

  await t.test('should refuse two docs.json at the same depth, naming both', async (t) => {
    t.same(caught(() => findDocsRoot(['web/docs.json', 'api/docs.json', 'api/index.mdx'])), {
      kind: 'user', code: 'invalid_config',
      message: 'docs.json: found api/docs.json and web/docs.json; expected one, or the docs folder set in the project (build-site --root <folder>)',
    });
    t.same(caught(() => findDocsRoot(['c/docs.json', 'a/docs.json', 'b/docs.json'])), {
      kind: 'user', code: 'invalid_config',
      message: 'docs.json: found a/docs.json and b/docs.json and 1 more; expected one, or the docs folder set in the project (build-site --root <folder>)',
    });
  });

  await t.test('should say when there is none, and name Mintlify\'s older mint.json when that is what there is', async (t) => {
    t.same(caught(() => findDocsRoot(['README.md', 'src/index.ts'])), {
      kind: 'user', code: 'invalid_config',
      message: 'docs.json: file not found; expected it at the repository root or in one of its folders, such as docs/',
    });
    t.same(caught(() => findDocsRoot(['mint.json', 'index.mdx'])), {
      kind: 'user', code: 'invalid_config',
      message: 'docs.json: file not found; expected it at the repository root (mint.json, Mintlify\'s older format, is not read: Mintlify\'s "mint upgrade" turns it into docs.json)',
    });
  });

  await t.test('should use the folder the project names, and refuse one without docs.json or outside the repository', async (t) => {
    t.equal(findDocsRoot(['docs.json', 'site/docs.json'], 'site'), 'site/');
    t.equal(findDocsRoot(['docs.json', 'site/docs.json'], './'), '');
    t.same([normalizeDocsRoot('docs'), normalizeDocsRoot('./docs/'), normalizeDocsRoot('.'), normalizeDocsRoot('')], ['docs/', 'docs/', '', '']);
    t.same(caught(() => findDocsRoot(['docs.json'], 'site')), {
      kind: 'user', code: 'invalid_config', message: 'docs.json: file not found in site/; expected it in the docs folder the project names',
    });
    for (const bad of ['../other', '/etc', 'docs/../../x', 'a\\b']) {
      t.same(caught(() => findDocsRoot(['docs.json'], bad)), {
        kind: 'user', code: 'invalid_docs_root', message: `Docs folder "${bad}": expected a folder inside the repository, such as docs, without .. or a leading /`,
      }, bad);
    }
  });
});

t.test('a repository whose docs.json is in a folder builds from that folder', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  // A monorepo: the docs in docs/ (Mintlify's own layout for it), code and its README beside.
  const files = {
    'README.md': '# The product\n',
    'src/index.ts': 'export {};\n',
    'src/notes.mdx': '# Not a page of the site\n',
    'docs/docs.json': JSON.stringify({ name: 'Mono', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] }, redirects: [{ source: '/old', destination: '/guides/setup' }] }),
    'docs/index.mdx': '---\ntitle: Home\n---\n\nSee [setup](/guides/setup).\n\n<img src="/images/logo.png" alt="Logo" />\n',
    'docs/guides/setup.mdx': '---\ntitle: Setup\n---\n\nimport Note from "/snippets/note.mdx";\n\n<Note />\n',
    'docs/snippets/note.mdx': 'A shared note.\n',
    'docs/images/logo.png': Buffer.from('89504e470d0a1a0a', 'hex'),
  };
  const dir = tempDir();
  makeRepo(dir, files);

  await t.test('should publish the folder\'s pages, snippets and images at the site root, and nothing from outside it', async (t) => {
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl, compiler, year: 2026 });
    t.same({ total: res.pagesTotal, errors: res.errors, warnings: res.warnings }, { total: 2, errors: [], warnings: [] });
    t.match(read(out, 'guides/setup/index.html'), 'A shared note.');
    t.ok(fs.existsSync(path.join(out, 'images/logo.png')));
    t.notOk(fs.existsSync(path.join(out, 'src/notes/index.html')), 'a page outside the docs folder is not published');
    t.notOk(fs.existsSync(path.join(out, 'docs/index.html')));
  });

  await t.test('should count the files of the docs folder against the site\'s limit, and the whole repository against its own', async (t) => {
    // 8 files in the repository, 5 in docs/.
    const ok = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026, limits: { maxFiles: 5 } });
    t.equal(ok.pagesTotal, 2);
    const tooMany = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026, limits: { maxFiles: 4 } }).catch((e) => e);
    t.same({ code: tooMany.code, message: tooMany.message }, { code: 'too_many_files', message: 'docs folder docs/ has 5 files; the limit is 4' });
    const repoTooMany = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026, limits: { maxRepoFiles: 7 } }).catch((e) => e);
    t.same({ code: repoTooMany.code, message: repoTooMany.message }, { code: 'too_many_files', message: 'repository has 8 files; the limit is 7' });
  });

  await t.test('should build the folder the build names, and refuse one without docs.json', async (t) => {
    const two = tempDir();
    writeFiles(two, {
      'web/docs.json': JSON.stringify({ name: 'Web', navigation: { pages: ['index'] } }), 'web/index.mdx': '# Web home\n',
      'api/docs.json': JSON.stringify({ name: 'API', navigation: { pages: ['index'] } }), 'api/index.mdx': '# API home\n',
    });
    const ambiguous = await build({ source: { kind: 'dir', dir: two }, store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026 }).catch((e) => e);
    t.same({ code: ambiguous.code, message: ambiguous.message }, {
      code: 'invalid_config', message: 'docs.json: found api/docs.json and web/docs.json; expected one, or the docs folder set in the project (build-site --root <folder>)',
    });
    const out = tempDir();
    const res = await build({ source: { kind: 'dir', dir: two }, docsRoot: 'web', store: createLocalDirStore(out), siteUrl, compiler, year: 2026 });
    t.equal(res.pagesTotal, 1);
    t.match(read(out, 'index.html'), 'Web home');
    const missing = await build({ source: { kind: 'dir', dir: two }, docsRoot: 'cli/', store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026 }).catch((e) => e);
    t.same({ code: missing.code, message: missing.message }, { code: 'invalid_config', message: 'docs.json: file not found in cli/; expected it in the docs folder the project names' });
  });

  await t.test('should skip symbolic links leaving the repository in folders without pages, saying so once', async (t) => {
    const linked = tempDir();
    const outside = tempDir();
    writeFiles(outside, { 'SKILL.md': '# Outside\n' });
    writeFiles(linked, { 'docs/docs.json': JSON.stringify({ name: 'Links', navigation: { pages: ['index'] } }), 'docs/index.mdx': '# Home\n' });
    fs.mkdirSync(path.join(linked, 'docs/.mintlify'));
    fs.symlinkSync(outside, path.join(linked, 'docs/.mintlify/skills'));
    fs.symlinkSync(path.join(outside, 'SKILL.md'), path.join(linked, 'docs/.mintlify/extra.md'));
    fs.symlinkSync(outside, path.join(linked, 'tools'));
    const res = await build({ source: { kind: 'dir', dir: linked }, store: createLocalDirStore(tempDir()), siteUrl, compiler, year: 2026 });
    t.same({ total: res.pagesTotal, errors: res.errors, warnings: res.warnings }, {
      total: 1, errors: [], warnings: ['Symbolic links leaving the repository skipped: .mintlify/extra.md, .mintlify/skills'],
    });
  });

  await t.test('should preview the same folder with the dev server', async (t) => {
    const dev = await startDev({ dir, port: 0, cacheDir: tempDir() });
    t.teardown(() => dev.close());
    t.equal(dev.dir, path.join(dir, 'docs'));
    await dev.session.ready;
    const res = await fetch(`${dev.url}/guides/setup`);
    t.equal(res.status, 200);
    t.match(await res.text(), 'A shared note.');
    t.same(dev.session.problems(), []);
  });
});

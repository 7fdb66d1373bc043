import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { byTypicalSize, commitEdit, externalCorpus, pageToEdit } from '../src/corpus/bench-corpus.ts';
import { startEditCommitter } from '../src/corpus/edit-committer.ts';
import { editMarker } from '../src/generate-corpus.ts';

// Every folder made here is removed when the test ends.
const made: string[] = [];
const temp = () => { const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-corpus-test-')); made.push(dir); return dir; };
t.teardown(() => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }); });
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd: dir, encoding: 'utf8' }).trim();

function folder(files: Record<string, string>): string {
  const dir = temp();
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

t.test('bench corpus', async (t) => {
  t.test('should copy a plain folder into a new repository and read its pages under contentRoot', async (t) => {
    const source = folder({ 'docs.json': '{ "name": "Plain" }', 'docs/a.mdx': '# A\n', 'docs/g/b.md': '# B\n', 'other/c.mdx': '# C\n', 'node_modules/x/d.mdx': '' });
    const dir = path.join(temp(), 'repo');
    const corpus = externalCorpus(source, dir);
    t.same({ contentRoot: corpus.contentRoot, pages: corpus.pages.map((p) => p.path), notes: corpus.notes }, { contentRoot: 'docs/', pages: ['docs/a.mdx', 'docs/g/b.md'], notes: [] });
    t.equal(git(dir, 'status', '--porcelain'), '', 'all committed');
    t.equal(fs.existsSync(path.join(dir, 'node_modules')), false);
  });

  t.test('should clone a repository, edit only the copy, and replace a docs.json the builder refuses', async (t) => {
    const source = folder({ 'docs.json': '{ "name": "Mint", "theme": "blue" }', 'index.mdx': '# Home\n', 'guides/start.mdx': '# Start\n\nMore text here.\n' });
    git(source, 'init', '-q', '-b', 'main');
    git(source, 'add', '-A');
    git(source, 'commit', '-qm', 'init');
    const dir = path.join(temp(), 'repo');
    const corpus = externalCorpus(source, dir);
    t.same(corpus.notes, ['docs.json: theme: Unexpected "blue"; expected one of cedar, obsidian, birch, oak, cypress, ember, larch, sage, slate, terminal; built with a minimal docs.json instead: {"name":"Mint","contentRoot":"./"}']);
    t.same(JSON.parse(fs.readFileSync(path.join(dir, 'docs.json'), 'utf8')), { name: 'Mint', contentRoot: './' });
    t.same({ contentRoot: corpus.contentRoot, pages: corpus.pages.map((p) => p.path) }, { contentRoot: '', pages: ['guides/start.mdx', 'index.mdx'] });
    commitEdit(dir, corpus.pages[1], 1);
    t.equal(fs.readFileSync(path.join(dir, 'index.mdx'), 'utf8'), `# Home\n\n${editMarker(1)}\n`);
    t.equal(git(source, 'log', '--oneline').split('\n').length, 1, 'the original is untouched');
    t.equal(fs.readFileSync(path.join(source, 'docs.json'), 'utf8'), '{ "name": "Mint", "theme": "blue" }');
  });

  t.test('should commit edits from a helper process, and report a commit that fails', async (t) => {
    const dir = path.join(temp(), 'repo');
    const corpus = externalCorpus(folder({ 'docs.json': '{ "name": "Helper" }', 'docs/a.mdx': '# A\n' }), dir);
    const committer = startEditCommitter();
    t.teardown(() => committer.close());
    await committer.commit(dir, corpus.pages[0], 1);
    await committer.commit(dir, corpus.pages[0], 2);
    t.equal(fs.readFileSync(path.join(dir, 'docs/a.mdx'), 'utf8'), `# A\n\n${editMarker(2)}\n`);
    t.same(git(dir, 'log', '--format=%s').split('\n').slice(0, 2), ['edit 2', 'edit 1']);
    t.equal(git(dir, 'status', '--porcelain'), '', 'all committed');
    await t.rejects(committer.commit(path.join(temp(), 'not-a-repo'), corpus.pages[0], 3), /ENOENT|not a git repository|Command failed/);
  });

  t.test('should read a Mintlify repository as it is: its theme name, pages at the root', async (t) => {
    const source = folder({ 'docs.json': '{ "name": "Mint", "theme": "mint" }', 'index.mdx': '# Home\n', 'guides/start.mdx': '# Start\n' });
    const corpus = externalCorpus(source, path.join(temp(), 'repo'));
    t.same({ notes: corpus.notes, contentRoot: corpus.contentRoot, pages: corpus.pages.map((p) => p.path) }, { notes: [], contentRoot: '', pages: ['guides/start.mdx', 'index.mdx'] });
  });

  t.test('should refuse a missing folder and a folder without pages', async (t) => {
    t.throws(() => externalCorpus(path.join(temp(), 'none'), path.join(temp(), 'repo')), /no such folder/);
    t.throws(() => externalCorpus(folder({ 'docs.json': '{ "name": "Empty" }', 'README.txt': 'x' }), path.join(temp(), 'repo')), /no \.mdx or \.md pages under the repository root/);
  });

  t.test('should edit the built page nearest the median size', async (t) => {
    const pages = [{ path: 'a', source: 'x'.repeat(10) }, { path: 'b', source: 'x'.repeat(100) }, { path: 'c', source: 'x'.repeat(90) }, { path: 'd', source: 'x'.repeat(500) }];
    t.same(byTypicalSize(pages).map((p) => p.path), ['b', 'c', 'a', 'd']);
    t.equal(pageToEdit(pages).path, 'b');
    t.equal(pageToEdit(pages, (p) => p !== 'b').path, 'c', 'a failed page is not edited');
    t.throws(() => pageToEdit(pages, () => false), /nothing to edit/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { isGitRepository, openDirSnapshot, openGitSnapshot } from '../../src/git/repo-snapshot.ts';
import { commitFiles, gitIn, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';

t.test('repo-snapshot', async (t) => {
  await t.test('should give a plain folder the blob ids Git gives the same files', async (t) => {
    const files = { 'docs/a.mdx': '# A\n', 'docs/b/c.md': 'C\n', 'public/logo.svg': '<svg/>' };
    const repo = tempDir();
    makeRepo(repo, files);
    const plain = tempDir();
    writeFiles(plain, files);
    const fromGit = await openGitSnapshot(repo);
    const fromDir = await openDirSnapshot(plain);
    t.same([...fromDir.files].sort(), [...fromGit.files].sort());
    t.equal(fromDir.sizeBytes, '# A\n'.length + 'C\n'.length + '<svg/>'.length);
    t.equal(Buffer.from(await fromDir.read('docs/b/c.md')).toString(), 'C\n');
    t.equal(isGitRepository(repo), true);
    t.equal(isGitRepository(plain), false);
  });

  await t.test('should follow new commits and count the Git folder again after new objects and a repack', async (t) => {
    const repo = tempDir();
    makeRepo(repo, { 'docs/a.mdx': '# A\n', 'docs/deep/b.mdx': 'B\n', 'docs/other/c.mdx': 'C\n' });
    const du = (dir: string): number => fs.readdirSync(dir, { withFileTypes: true })
      .reduce((sum, e) => sum + (e.isDirectory() ? du(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
    const objects = path.join(repo, '.git/objects');
    const first = await openGitSnapshot(repo);
    t.equal(first.sizeBytes, du(objects));
    commitFiles(repo, { 'docs/deep/b.mdx': 'B, edited\n', 'docs/deep/new.mdx': 'New\n' });
    const second = await openGitSnapshot(repo);
    t.equal(second.sizeBytes, du(objects), 'new loose objects counted');
    t.same([...second.files.keys()].sort(), ['docs/a.mdx', 'docs/deep/b.mdx', 'docs/deep/new.mdx', 'docs/other/c.mdx']);
    t.equal(Buffer.from(await second.read('docs/deep/b.mdx')).toString(), 'B, edited\n');
    t.equal(second.files.get('docs/other/c.mdx'), first.files.get('docs/other/c.mdx'), 'an unchanged folder lists the same blobs');
    gitIn(repo, 'gc', '-q', '--prune=now');
    const packed = await openGitSnapshot(repo);
    t.equal(packed.sizeBytes, du(objects), 'a repack counted');
    t.same(packed.files, second.files);
  });

  await t.test('should read a link inside the repository as its target', async (t) => {
    const repo = tempDir();
    makeRepo(repo, { 'snippets/note.mdx': 'Note\n', 'docs/note.mdx': { link: '../snippets/note.mdx' } });
    const snap = await openGitSnapshot(repo);
    t.equal(snap.files.get('docs/note.mdx'), snap.files.get('snippets/note.mdx'));
    t.equal(Buffer.from(await snap.read('docs/note.mdx')).toString(), 'Note\n');
    const plain = await openDirSnapshot(repo);
    t.equal(Buffer.from(await plain.read('docs/note.mdx')).toString(), 'Note\n');
  });

  await t.test('should list a link that leaves the repository and refuse to read it, from Git and from a folder', async (t) => {
    const repo = tempDir();
    makeRepo(repo, { 'docs/index.mdx': '# Hi\n', 'docs/secrets.mdx': { link: '../../etc/passwd' }, '.mintlify/skills': { link: '../../skills' } });
    const expected = {
      kind: 'user', code: 'unsafe_path',
      message: 'Symbolic link "docs/secrets.mdx" points to "../../etc/passwd", outside the repository; expected a link to a file inside it',
    };
    const pick = (e: any) => ({ kind: e.kind, code: e.code, message: e.message });
    for (const snap of [await openGitSnapshot(repo), await openDirSnapshot(repo)]) {
      t.same([...snap.files.keys()].sort(), ['.mintlify/skills', 'docs/index.mdx', 'docs/secrets.mdx']);
      t.same(pick(await snap.read('docs/secrets.mdx').catch((e) => e)), expected);
      t.equal(Buffer.from(await snap.read('docs/index.mdx')).toString(), '# Hi\n');
    }
    fs.rmSync(path.join(repo, 'docs/secrets.mdx'));
    fs.symlinkSync('/etc/passwd', path.join(repo, 'docs/abs.mdx'));
    t.same(pick(await (await openDirSnapshot(repo)).read('docs/abs.mdx').catch((e) => e)), {
      ...expected, message: 'Symbolic link "docs/abs.mdx" points to "/etc/passwd", outside the repository; expected a link to a file inside it',
    });
  });
});

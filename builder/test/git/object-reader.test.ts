import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { applyDelta, createObjectReader } from '../../src/git/object-reader.ts';
import { openGitSnapshot } from '../../src/git/repo-snapshot.ts';
import { commitFiles, gitIn, makeRepo, tempDir } from '../helpers/git-repo.ts';

/** A repository with history, so a repack stores most versions as deltas of others. */
function repoWithHistory(): string {
  const dir = tempDir();
  const long = (n: number) => Array.from({ length: 200 }, (_, i) => `Line ${i} of a page that changes a little (${i === 100 ? n : 0}).`).join('\n');
  makeRepo(dir, { 'docs/a.mdx': long(0), 'docs/deep/b/c.md': '# C\n', 'public/logo.svg': '<svg/>', 'docs.json': '{"name":"A"}' });
  for (let n = 1; n <= 4; n++) commitFiles(dir, { 'docs/a.mdx': long(n), [`docs/deep/b/p${n}.mdx`]: `# P${n}\n` });
  return dir;
}

/** Every object of HEAD's tree, as `git cat-file` reads it. */
function expected(dir: string): Array<{ oid: string; type: string; content: Buffer }> {
  return gitIn(dir, 'ls-tree', '-r', '-t', 'HEAD').split('\n').map((line) => {
    const [, type, oid] = line.split(/\s+/);
    // As a Buffer: tree objects are binary.
    return { oid, type, content: execFileSync('git', ['cat-file', type, oid], { cwd: dir }) };
  });
}

t.test('object-reader', async (t) => {
  await t.test('should read loose objects as git cat-file does', async (t) => {
    const dir = repoWithHistory();
    const reader = createObjectReader(path.join(dir, '.git'));
    for (const want of expected(dir)) {
      const got = await reader.read(want.oid);
      t.equal(got.type, want.type, want.oid);
      t.ok(got.content.equals(want.content), `${want.type} ${want.oid}`);
    }
  });

  await t.test('should read packed objects stored as deltas as git cat-file does', async (t) => {
    const dir = repoWithHistory();
    gitIn(dir, 'repack', '-adfq', '--window=50', '--depth=50');
    const loose = fs.readdirSync(path.join(dir, '.git', 'objects')).filter((n) => /^[0-9a-f]{2}$/.test(n));
    t.same(loose, [], 'every object is packed');
    const verify = gitIn(dir, 'verify-pack', '-v', ...fs.readdirSync(path.join(dir, '.git/objects/pack')).filter((n) => n.endsWith('.idx')).map((n) => `.git/objects/pack/${n}`));
    t.ok(verify.split('\n').some((line) => line.split(/\s+/).length >= 7), 'the pack holds deltas');
    const reader = createObjectReader(path.join(dir, '.git'));
    for (const want of expected(dir)) {
      const got = await reader.read(want.oid);
      t.equal(got.type, want.type, want.oid);
      t.ok(got.content.equals(want.content), `${want.type} ${want.oid}`);
    }
    const snap = await openGitSnapshot(dir);
    t.same([...snap.files.keys()].sort(), gitIn(dir, 'ls-files').split('\n').sort());
  });

  await t.test('should read the packs of each repack, whatever an earlier reader parsed', async (t) => {
    const dir = repoWithHistory();
    gitIn(dir, 'repack', '-adq');
    const check = async () => {
      const reader = createObjectReader(path.join(dir, '.git'));
      for (const want of expected(dir)) t.ok((await reader.read(want.oid)).content.equals(want.content), `${want.type} ${want.oid}`);
    };
    await check();
    commitFiles(dir, { 'docs/a.mdx': 'Rewritten.\n', 'docs/new.mdx': '# New\n' });
    gitIn(dir, 'repack', '-adq');
    await check();
  });

  await t.test('should refuse a loose object whose bytes do not match its id', async (t) => {
    const dir = tempDir();
    makeRepo(dir, { 'a.md': 'A\n', 'b.md': 'B\n' });
    const a = gitIn(dir, 'rev-parse', 'HEAD:a.md');
    const b = gitIn(dir, 'rev-parse', 'HEAD:b.md');
    const file = (oid: string) => path.join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
    fs.chmodSync(file(a), 0o644);
    fs.copyFileSync(file(b), file(a));
    const err = await createObjectReader(path.join(dir, '.git')).read(a).catch((e: unknown) => e);
    t.same({ code: (err as { code: string }).code, message: (err as Error).message }, { code: 'git_object_corrupt', message: `Git object ${a} does not match its id (${b})` });
  });

  await t.test('should apply copy and insert instructions of a delta', async (t) => {
    const base = Buffer.from('0123456789');
    // Sizes 10 and 7; copy 4 bytes from offset 2; insert "xyz".
    const delta = Buffer.from([10, 7, 0x80 | 0x01 | 0x10, 2, 4, 3, ...Buffer.from('xyz')]);
    t.equal(applyDelta(base, delta).toString(), '2345xyz');
    t.throws(() => applyDelta(Buffer.from('short'), delta), /delta base is 5 bytes, expected 10/);
  });
});

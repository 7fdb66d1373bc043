import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { readBranchHeads } from '../../src/git/read-refs.ts';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv }).toString().trim();

t.test('read branch heads', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-refs-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const bare = path.join(root, 'repo.git');
  const work = path.join(root, 'work');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', bare);
  git(root, 'init', '-q', '-b', 'main', work);
  const commit = (text: string) => {
    fs.writeFileSync(path.join(work, 'a.mdx'), text);
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', text);
    return git(work, 'rev-parse', 'HEAD');
  };
  /** What `git for-each-ref` says, as the map readBranchHeads returns. */
  const fromGit = () => new Map(git(bare, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/').split('\n').filter(Boolean)
    .map((l) => l.split(' ')).map(([ref, id]) => [ref.slice('refs/heads/'.length), id] as [string, string]));

  t.test('should find nothing in an empty repository, and nothing in a missing one', async (t) => {
    t.same(readBranchHeads(bare), new Map());
    t.same(readBranchHeads(path.join(root, 'missing.git')), new Map());
  });

  t.test('should read loose, nested and packed branches as git does, a loose ref winning over its packed value', async (t) => {
    const first = commit('one');
    git(work, 'push', '-q', bare, 'main', 'main:feature/deep/x', 'main:packed-only');
    git(bare, 'pack-refs', '--all');
    const second = commit('two');
    // main moves after packing: its loose file is newer than packed-refs' line.
    git(work, 'push', '-q', bare, 'main');
    fs.writeFileSync(path.join(bare, 'refs/heads/stale.lock'), `${first}\n`);
    fs.writeFileSync(path.join(bare, 'refs/heads/symbolic'), 'ref: refs/heads/main\n');
    const heads = readBranchHeads(bare)!;
    t.same(heads, new Map([['feature/deep/x', first], ['main', second], ['packed-only', first]]));
    fs.rmSync(path.join(bare, 'refs/heads/symbolic'));
    t.same(heads, fromGit(), 'the same as git for-each-ref');
  });

  t.test('should leave a repository in another ref format to git', async (t) => {
    const other = path.join(root, 'reftable.git');
    fs.mkdirSync(path.join(other, 'reftable'), { recursive: true });
    t.equal(readBranchHeads(other), undefined);
  });
});

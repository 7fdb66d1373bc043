import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { readCommitInfo } from '../../src/worker/commit-info.ts';

t.test('commit info', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-commit-info-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, {
    cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'Ada Lovelace', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' },
  }).toString().trim();
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'docs.json'), '{"name":"Docs"}');
  git('add', '-A');
  git('commit', '-q', '-m', 'Rename the guides\n\nA longer body that is not sent.');
  const head = git('rev-parse', 'HEAD');

  t.test('should read the subject line and the author of a commit of a checkout', async (t) => {
    t.same(await readCommitInfo({ kind: 'dir', dir }, head), { message: 'Rename the guides', author: 'Ada Lovelace <ada@example.com>' });
  });

  t.test('should answer nothing for a missing commit, no commit or no repository', async (t) => {
    t.equal(await readCommitInfo({ kind: 'dir', dir }, 'f'.repeat(40)), undefined);
    t.equal(await readCommitInfo({ kind: 'dir', dir }, undefined), undefined);
    t.equal(await readCommitInfo({ kind: 'dir', dir: os.tmpdir() }, head), undefined);
  });
});

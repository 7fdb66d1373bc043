import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { runGit } from '../../src/git/git-cli.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const TRIGGERS = 50;
const PUSHES = 4;
const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

t.test('trigger join', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Join', slug: 'join-race' })).body;
  const remote = `${tp.p.internalUrl.replace('http://', `http://git:${tp.key}@`)}/git/join-race.git`;

  /** A working copy with one unrelated root commit, so every forced push moves the branch. */
  async function clone(i: number): Promise<{ dir: string; sha: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-join-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: `Join ${i}` }));
    await runGit(['add', '-A'], { cwd: dir });
    await runGit(['commit', '-q', '-m', `root ${i}`], { cwd: dir, env: GIT_ENV });
    return { dir, sha: (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).stdout.toString().trim() };
  }

  t.test('should answer 50 concurrent triggers and concurrent pushes with one queued deployment', async (t) => {
    const copies = await Promise.all(Array.from({ length: PUSHES }, (_, i) => clone(i)));
    const [triggers, pushes] = await Promise.all([
      Promise.all(Array.from({ length: TRIGGERS }, () => tp.api('POST', `/projects/${project.id}/deployments`))),
      // Concurrent receive-packs race for the branch's lock: some may lose, at least one moves it.
      Promise.all(copies.map((c) => runGit(['push', '-q', '--force', remote, 'main'], { cwd: c.dir, allowFail: true }))),
    ]);
    const rows = await tp.p.cp.m.Deployment.find({ project_id: project.id }).lean();
    t.same(rows.map((d) => d.status), ['queued'], 'exactly one deployment, queued');
    t.same(new Set(triggers.map((r) => r.status)), new Set([202]));
    t.same(new Set(triggers.map((r) => r.body.id)), new Set([rows[0]._id]), 'every trigger answers with it');
    t.ok(pushes.some((p) => p.code === 0), 'at least one push moved the branch');
    t.ok(copies.some((c) => c.sha === rows[0].commit_sha), 'it carries a pushed commit');
    const listed = await tp.api('GET', `/projects/${project.id}/deployments?status=queued`);
    t.same(listed.body.data.map((d: { id: string }) => d.id), [rows[0]._id]);
  });
});

/**
 * A push whose process died after Git moved the branch and before the deployment was queued:
 * the intent it left is finished by any control plane's sweep, once, and a push that completed
 * leaves no intent behind.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { finishInterruptedPushes, STALE_AFTER_MS } from '../../src/git/interrupted-pushes.ts';
import { branchHeads, repoPath } from '../../src/git/managed-repos.ts';
import { recordPushIntent } from '../../src/git/push-intents.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' };

t.test('interrupted pushes', async (t) => {
  const tp = await startTestPlatform({ PUSH_WAIT_MS: '0' });
  t.teardown(() => tp.close());
  const deps = tp.p.cp.deps;
  const m = tp.p.cp.m;
  const project = (await tp.api('POST', '/projects', { name: 'Interrupted', slug: 'interrupted-push' })).body;
  const wc = await tp.workingCopy('interrupted-push', { 'docs.json': JSON.stringify({ name: 'Interrupted' }), 'index.mdx': '# One\n' });
  const deploymentsOf = () => m.Deployment.find({ project_id: project.id }).lean();
  const stale = () => new Date(deps.now().getTime() - STALE_AFTER_MS - 1000);

  await t.test('should leave no intent behind a push that completed', async (t) => {
    await run('git', ['push', '-q', 'origin', 'main'], { cwd: wc.dir });
    t.equal(await m.PushIntent.countDocuments({ project_id: project.id }), 0);
    t.equal((await deploymentsOf()).length, 1);
  });

  await t.test('should queue the deployment a dead process never queued, once', async (t) => {
    const before = await branchHeads(deps, project.id);
    // What a push does before its process dies: the intent, then Git moves the branch.
    await m.PushIntent.create({ project_id: project.id, before: Object.fromEntries(before), started_at: stale() });
    fs.writeFileSync(path.join(wc.dir, 'index.mdx'), '# Two\n');
    await run('git', ['commit', '-qam', 'two'], { cwd: wc.dir, env: GIT_ENV });
    await run('git', ['push', '-q', repoPath(deps, project.id), 'main'], { cwd: wc.dir });
    const head = (await branchHeads(deps, project.id)).get('main');
    t.not(head, before.get('main'));

    t.equal(await finishInterruptedPushes(deps), 1, 'one push finished');
    const queued = (await deploymentsOf()).filter((d) => d.commit_sha === head);
    t.equal(queued.length, 1, 'its deployment queued');
    t.equal(await m.PushIntent.countDocuments({}), 0, 'the intent is gone');
    t.equal(await finishInterruptedPushes(deps), 0, 'nothing left to finish');
    t.equal((await deploymentsOf()).filter((d) => d.commit_sha === head).length, 1, 'still one deployment');
  });

  await t.test('should not queue again what the dead process had queued', async (t) => {
    const before = await branchHeads(deps, project.id);
    fs.writeFileSync(path.join(wc.dir, 'index.mdx'), '# Three\n');
    await run('git', ['commit', '-qam', 'three'], { cwd: wc.dir, env: GIT_ENV });
    await run('git', ['push', '-q', 'origin', 'main'], { cwd: wc.dir });
    const head = (await branchHeads(deps, project.id)).get('main');
    // The process queued the deployment and died before removing its intent; a builder built it.
    await m.Deployment.updateOne({ project_id: project.id, commit_sha: head }, { $set: { status: 'deployed', fencing: 1 } });
    await m.PushIntent.create({ project_id: project.id, before: Object.fromEntries(before), started_at: stale() });
    t.equal(await finishInterruptedPushes(deps), 1);
    t.equal((await deploymentsOf()).filter((d) => d.commit_sha === head).length, 1, 'one deployment for the commit');
  });

  await t.test("should queue the deployment of a project's first push, whose intent had no branch before it", async (t) => {
    const first = (await tp.api('POST', '/projects', { name: 'First push', slug: 'interrupted-first-push' })).body;
    const fresh = await tp.workingCopy('interrupted-first-push', { 'docs.json': JSON.stringify({ name: 'First' }), 'index.mdx': '# First\n' });
    const before = await branchHeads(deps, first.id);
    t.equal(before.size, 0, 'no branch yet');
    // What the push records before its process dies (an empty `before`), then Git creates the branch.
    await recordPushIntent(deps, first.id, before);
    await m.PushIntent.updateOne({ project_id: first.id }, { $set: { started_at: stale() } });
    await run('git', ['push', '-q', repoPath(deps, first.id), 'main'], { cwd: fresh.dir });
    const head = (await branchHeads(deps, first.id)).get('main');

    t.equal(await finishInterruptedPushes(deps), 1, 'the push finished');
    const queued = await m.Deployment.find({ project_id: first.id }).lean();
    t.same(queued.map((d) => d.commit_sha), [head], 'its deployment queued');
    t.equal(await m.PushIntent.countDocuments({ project_id: first.id }), 0, 'the intent is gone');
  });

  await t.test('should remove an intent once however often its push says it is done', async (t) => {
    const done = await recordPushIntent(deps, project.id, await branchHeads(deps, project.id));
    await done();
    await done();
    t.equal(await m.PushIntent.countDocuments({ project_id: project.id }), 0);
  });

  await t.test('should leave a push still in progress alone', async (t) => {
    await m.PushIntent.create({ project_id: project.id, before: Object.fromEntries(await branchHeads(deps, project.id)), started_at: deps.now() });
    t.equal(await finishInterruptedPushes(deps), 0);
    t.equal(await m.PushIntent.countDocuments({ project_id: project.id }), 1);
  });
});

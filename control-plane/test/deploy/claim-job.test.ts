import t from 'tap';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { FairShare } from '../../src/deploy/fair-share.ts';
import { completeJob, enqueueDeployment } from '../../src/deploy/queue.ts';
import type { PlanId } from '../../src/db/models/organization.ts';
import { startTestApi } from '../helpers/api.ts';

const sha = (c: string) => c.repeat(40);

t.test('claim job', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const base = new Date(Date.UTC(2026, 10, 22, 12));
  const at = (ms: number) => new Date(base.getTime() + ms);
  let n = 0;
  /** An organization on `plan` with `count` projects (inserted directly: plan limits are not what is tested). */
  const orgWithProjects = async (plan: PlanId, count: number) => {
    const org = await api.org(plan);
    const docs = await m.Project.insertMany(Array.from({ length: count }, () => ({ org_id: org.id, name: 'P', slug: `claim-${process.pid}-${++n}` })));
    return { org: org.id, projects: docs.map((d) => d._id as string) };
  };
  const fresh = async () => { await m.Deployment.deleteMany({}); await m.ClaimHead.deleteMany({}); };

  t.test('should build the branch head at claim time, not the commit of the push that queued it', async (t) => {
    await fresh();
    const { projects: [id] } = await orgWithProjects('free', 1);
    await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('a') }, at(0));
    const job = (await claimJob(m, 'w', at(10), 1000, { headOf: async () => sha('c') }))!;
    t.equal(job.deployment.commit_sha, sha('c'));
  });

  t.test('should end a queued push of the live commit as deployed without a build, and build a manual trigger', async (t) => {
    await fresh();
    const { projects: [id] } = await orgWithProjects('free', 1);
    await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('a') }, at(0));
    const first = (await claimJob(m, 'w', at(1), 1000))!;
    await completeJob(m, { deploymentId: first.deployment._id, fencing: 1, token: first.token }, { status: 'deployed', commit_sha: sha('a'), pages_total: 4, pages_success: 4, pages_failed: 0 }, at(2));
    const again = await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('b') }, at(3));
    // The branch moved back to the live commit (a forced push, or a newer push built already).
    t.equal(await claimJob(m, 'w', at(4), 1000, { headOf: async () => sha('a') }), undefined, 'nothing to build');
    const skipped = (await m.Deployment.findById(again._id).lean())!;
    t.same([skipped.status, skipped.commit_sha, skipped.fencing, skipped.pages_total, skipped.finished_at?.toISOString()], ['deployed', sha('a'), 0, 4, at(4).toISOString()]);
    const manual = await enqueueDeployment(m, id, { trigger: 'manual' }, at(5));
    const job = await claimJob(m, 'w', at(6), 1000, { headOf: async () => sha('a') });
    t.equal(job?.deployment._id, manual._id, 'a manual trigger rebuilds the live commit');
  });

  t.test('should make a push joining a queued manual trigger still build', async (t) => {
    await fresh();
    const { projects: [id] } = await orgWithProjects('free', 1);
    const d = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('e') }, at(1));
    t.equal((await m.Deployment.findById(d._id).lean())!.force, true);
  });

  t.test('should not let one organization with 300 queued projects starve another', async (t) => {
    await fresh();
    const big = await orgWithProjects('free', 300);
    const small = await orgWithProjects('free', 3);
    for (const [i, id] of big.projects.entries()) await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('1') }, at(i));
    // The small organization pushes after all 300.
    for (const [i, id] of small.projects.entries()) await enqueueDeployment(m, id, { trigger: 'push', commitSha: sha('2') }, at(1000 + i));
    const orgOf = new Map([...big.projects.map((p) => [p, 'big'] as const), ...small.projects.map((p) => [p, 'small'] as const)]);
    const order: string[] = [];
    for (let i = 0; i < 8; i++) order.push(orgOf.get((await claimJob(m, `w${i}`, at(2000), 60_000))!.deployment.project_id)!);
    t.same(order, ['big', 'small', 'big', 'small', 'big', 'small', 'big', 'big'], 'turns alternate while both wait; oldest first on a tie');
  });

  t.test('should share builds by plan weight while organizations wait', async (t) => {
    await fresh();
    const team = await orgWithProjects('team', 40);
    const free = await orgWithProjects('free', 40);
    for (let i = 0; i < 40; i++) {
      await enqueueDeployment(m, free.projects[i], { trigger: 'push', commitSha: sha('3') }, at(2 * i));
      await enqueueDeployment(m, team.projects[i], { trigger: 'push', commitSha: sha('4') }, at(2 * i + 1));
    }
    const teamSet = new Set(team.projects);
    let teamBuilds = 0;
    for (let i = 0; i < 25; i++) if (teamSet.has((await claimJob(m, `w${i}`, at(5000), 60_000))!.deployment.project_id)) teamBuilds++;
    t.equal(teamBuilds, 20, 'team (weight 4) gets 20 of 25 builds, free (weight 1) 5');
  });

  t.test('should give an organization that was idle no credit to burst with', async (t) => {
    const fair = new FairShare();
    for (let i = 0; i < 10; i++) fair.charge('busy', 1);
    // `late` never built; `busy` built 10. Both wait now: `late` starts at the virtual time, one turn ahead, not ten.
    t.same(fair.order([{ org: 'busy', oldest: 0 }, { org: 'late', oldest: 1 }]).map((g) => g.org), ['late', 'busy']);
    fair.charge('late', 1);
    t.same(fair.order([{ org: 'busy', oldest: 0 }, { org: 'late', oldest: 1 }]).map((g) => g.org), ['busy', 'late']);
  });
});

import t from 'tap';
import { startEmbeddedMongo } from '@folio/embedded-mongo';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { models, type Models } from '../../src/db/models/index.ts';
import { FAIR_SHARE_CLOCK_ID } from '../../src/db/models/claim-head.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { enqueueDeployment } from '../../src/deploy/queue.ts';

/**
 * Claims from two control planes (two connections, each with its own models and in-process
 * state) sharing one database: every job goes to one claimer only, and the fair-share state is
 * the database's, so it survives a restart and both control planes follow it.
 */
t.test('claims against one shared database', async (t) => {
  const server = await startEmbeddedMongo();
  t.teardown(() => server.close());
  const open: Database[] = [];
  t.teardown(async () => { for (const db of open) await db.close(); });
  const connect = async (): Promise<{ db: Database; m: Models }> => {
    const db = await connectDatabase({ mongodbUri: server.uri, dbName: 'claims' });
    open.push(db);
    return { db, m: models(db.connection) };
  };
  const a = await connect();
  const b = await connect();
  let n = 0;
  const orgWithProjects = async (m: Models, count: number) => {
    const org = await createOrganization(m, `shared-${++n}`, 'free');
    const docs = await m.Project.insertMany(Array.from({ length: count }, () => ({ org_id: org._id, name: 'P', slug: `shared-${n}-${Math.random().toString(36).slice(2)}` })));
    return { org: org._id as string, projects: docs.map((d) => d._id as string) };
  };
  const fresh = async () => { await a.m.Deployment.deleteMany({}); await a.m.ClaimHead.deleteMany({}); };
  const base = new Date(Date.UTC(2026, 10, 22, 12));
  const at = (ms: number) => new Date(base.getTime() + ms);

  t.test('should hand each of 30 jobs to exactly one of 12 claimers on two control planes', async (t) => {
    await fresh();
    const orgs = await Promise.all([orgWithProjects(a.m, 10), orgWithProjects(a.m, 10), orgWithProjects(a.m, 10)]);
    const ids: string[] = [];
    for (const [i, o] of orgs.entries()) for (const p of o.projects) ids.push((await enqueueDeployment(a.m, p, { trigger: 'push', commitSha: 'a'.repeat(40) }, at(i)))._id);
    const got: string[] = [];
    // 12 claimers, half on each control plane, claiming until nothing is left.
    await Promise.all(Array.from({ length: 12 }, async (_, w) => {
      const m = w % 2 ? b.m : a.m;
      for (;;) {
        const job = await claimJob(m, `w${w}`, at(1000), 60_000);
        if (!job) return;
        got.push(job.deployment._id);
      }
    }));
    t.equal(got.length, 30, 'thirty claims succeeded');
    t.same([...new Set(got)].sort(), [...ids].sort(), 'every job claimed, none twice');
    const fencings = (await a.m.Deployment.find({ _id: { $in: ids } }, { fencing: 1 }).lean()).map((d) => d.fencing);
    t.same(new Set(fencings), new Set([1]), 'each claimed once');
  });

  t.test('should keep the fair-share turns across a restart and share them between control planes', async (t) => {
    await fresh();
    const big = await orgWithProjects(a.m, 20);
    const small = await orgWithProjects(a.m, 3);
    for (const [i, id] of big.projects.entries()) await enqueueDeployment(a.m, id, { trigger: 'push', commitSha: 'b'.repeat(40) }, at(i));
    for (const [i, id] of small.projects.entries()) await enqueueDeployment(a.m, id, { trigger: 'push', commitSha: 'c'.repeat(40) }, at(100 + i));
    const orgOf = (projectId: string) => (big.projects.includes(projectId) ? 'big' : 'small');
    const order: string[] = [];
    // Three claims on one control plane, then it restarts: the next claims follow on.
    for (let i = 0; i < 3; i++) order.push(orgOf((await claimJob(a.m, `a${i}`, at(200), 60_000))!.deployment.project_id));
    const tags = await a.m.ClaimHead.find({ _id: { $in: [big.org, small.org, FAIR_SHARE_CLOCK_ID] } }).lean();
    t.same(Object.fromEntries(tags.map((h) => [h._id === big.org ? 'big' : h._id === small.org ? 'small' : 'clock', h.finish])), { big: 2, small: 1, clock: 1 }, 'the tags are in the database');
    await a.db.close();
    open.splice(open.indexOf(a.db), 1);
    const restarted = await connect();
    order.push(orgOf((await claimJob(restarted.m, 'r0', at(300), 60_000))!.deployment.project_id));
    // The other control plane takes the next turn from the same state.
    order.push(orgOf((await claimJob(b.m, 'b0', at(300), 60_000))!.deployment.project_id));
    order.push(orgOf((await claimJob(restarted.m, 'r1', at(300), 60_000))!.deployment.project_id));
    t.same(order, ['big', 'small', 'big', 'small', 'big', 'small'], 'turns alternate as if nothing restarted');
    Object.assign(a, restarted);
  });

  t.test('should count both of two charges made at once for one organization', async (t) => {
    await fresh();
    const one = await orgWithProjects(a.m, 8);
    for (const [i, id] of one.projects.entries()) await enqueueDeployment(a.m, id, { trigger: 'push' }, at(i));
    await Promise.all(Array.from({ length: 8 }, (_, i) => claimJob(i % 2 ? b.m : a.m, `c${i}`, at(100), 60_000)));
    t.equal((await a.m.ClaimHead.findById(one.org).lean())!.finish, 8, 'eight builds charged, none lost to a race');
    t.equal(await claimJob(a.m, 'c9', at(100), 60_000), undefined, 'nothing left');
    t.notOk((await a.m.ClaimHead.findById(one.org).lean())!.ready_at, 'the head says nothing is queued');
  });

  t.test('should give open deployments from before queue heads their organization at start-up, and claim them', async (t) => {
    await fresh();
    const old = await orgWithProjects(a.m, 1);
    // Written as before deployments carried their organization: no queue_org, no queue head.
    await a.m.Deployment.collection.insertOne({ _id: 'legacy-queued', project_id: old.projects[0], status: 'queued', trigger: 'push', commit_sha: null, started_at: at(0), next_attempt_at: at(0), fencing: 0, attempts: 0 } as never);
    t.equal(await claimJob(a.m, 'l0', at(10), 60_000), undefined, 'not found before the start-up step');
    const restarted = await connect();
    t.equal((await restarted.m.Deployment.findById('legacy-queued').lean())!.queue_org, old.org);
    t.equal((await claimJob(restarted.m, 'l1', at(10), 60_000))?.deployment._id, 'legacy-queued');
  });
});

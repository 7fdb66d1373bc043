import t from 'tap';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { completeJob, enqueueDeployment, heartbeat, MAX_ATTEMPTS, poisonMessage, releaseJob } from '../../src/deploy/queue.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('deployment queue', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const base = new Date(Date.UTC(2026, 10, 22, 12));
  const at = (ms: number) => new Date(base.getTime() + ms);
  // The queue is platform-wide: each case starts from an empty one.
  const newProject = async () => {
    await m.Deployment.deleteMany({});
    return (await api.project((await api.tenant('pro')).key)).id as string;
  };

  t.test('should coalesce triggers while a sync is queued', async (t) => {
    const id = await newProject();
    const a = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    const b = await enqueueDeployment(m, id, { trigger: 'push', commitSha: 'a'.repeat(40) }, at(1));
    t.equal(b._id, a._id);
    t.equal(b.commit_sha, 'a'.repeat(40), 'the newest commit wins');
    t.equal(await m.Deployment.countDocuments({ project_id: id }), 1);
  });

  t.test('should join one fresh queued deployment under 50 concurrent enqueues', async (t) => {
    const id = await newProject();
    const shas = Array.from({ length: 50 }, (_, i) => i.toString(16).padStart(40, '0'));
    const all = await Promise.all(shas.map((sha, i) => enqueueDeployment(m, id, i % 2 ? { trigger: 'manual' } : { trigger: 'push', commitSha: sha }, at(i))));
    const rows = await m.Deployment.find({ project_id: id }).lean();
    t.equal(rows.length, 1);
    t.same(new Set(all.map((d) => d._id)), new Set([rows[0]._id]), 'every caller got the one deployment');
    t.same([rows[0].status, rows[0].fencing, shas.includes(rows[0].commit_sha!)], ['queued', 0, true]);
  });

  t.test('should queue a handed-back or retried sync again beside a fresh one, and join the oldest', async (t) => {
    const id = await newProject();
    const first = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    const job = (await claimJob(m, 'w1', at(1), 1000))!;
    const fresh = await enqueueDeployment(m, id, { trigger: 'push', commitSha: 'b'.repeat(40) }, at(2));
    t.not(fresh._id, first._id, 'a trigger during the build queues a new sync');
    await releaseJob(m, { deploymentId: first._id, fencing: job.deployment.fencing, token: job.token }, at(3));
    const queued = await m.Deployment.find({ project_id: id, status: 'queued' }).sort({ started_at: 1 }).lean();
    t.same(queued.map((d) => [d._id, d.fencing]), [[first._id, 1], [fresh._id, 0]]);
    const joined = await enqueueDeployment(m, id, { trigger: 'manual' }, at(4));
    t.equal(joined._id, first._id);
  });

  t.test('should run one build per project and hand a dead worker\'s job to another with a new fencing token', async (t) => {
    const id = await newProject();
    await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    const first = (await claimJob(m, 'w1', at(0), 1000))!;
    t.equal(first.deployment.fencing, 1);
    t.equal((await m.Project.findById(id).lean())!.status, 'building');
    await enqueueDeployment(m, id, { trigger: 'manual' }, at(10));
    const blocked = await claimJob(m, 'w2', at(20), 1000);
    t.not(blocked?.deployment.project_id, id, 'the second sync waits while the first holds its lease');
    const proof1 = { deploymentId: first.deployment._id, fencing: 1, token: first.token };
    await heartbeat(m, proof1, at(500), 1000);
    t.equal(await claimJob(m, 'w2', at(1400), 1000).then((j) => j?.deployment._id === first.deployment._id), false, 'a heartbeat keeps the lease');
    const takeover = (await claimJob(m, 'w2', at(1600), 1000))!;
    t.equal(takeover.deployment._id, first.deployment._id, 'an expired lease is taken over');
    t.equal(takeover.deployment.fencing, 2);
    const late = await completeJob(m, proof1, { status: 'deployed', pages_total: 1 }, at(1700)).catch((e) => e);
    t.same([late.status, late.code], [409, 'lease_lost'], 'the stale worker\'s report is rejected');
    await completeJob(m, { deploymentId: takeover.deployment._id, fencing: 2, token: takeover.token }, { status: 'deployed', pages_total: 3, pages_success: 3, pages_failed: 0 }, at(1800));
    const done = (await m.Deployment.findById(first.deployment._id).lean())!;
    t.same([done.status, done.pages_total, done.finished_at?.toISOString()], ['deployed', 3, at(1800).toISOString()]);
    const project = (await m.Project.findById(id).lean())!;
    t.same([project.status, project.last_deploy_at?.toISOString()], ['active', at(1800).toISOString()]);
  });

  t.test('should retry platform failures with backoff, then fail with the reason', async (t) => {
    const id = await newProject();
    const d = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    let now = 0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const job = (await claimJob(m, 'w', at(now), 1000))!;
      t.equal(job?.deployment._id, d._id, `attempt ${attempt} claimed`);
      await completeJob(m, { deploymentId: d._id, fencing: job.deployment.fencing, token: job.token }, { status: 'failed', retryable: true, error: 'storage unreachable' }, at(now));
      const after = (await m.Deployment.findById(d._id).lean())!;
      if (attempt < MAX_ATTEMPTS) {
        t.equal(after.status, 'queued');
        t.equal(await claimJob(m, 'w', at(now + 100), 1000), undefined, 'not before the backoff');
        now = after.next_attempt_at!.getTime() - base.getTime();
      } else {
        t.same([after.status, after.error], ['failed', 'storage unreachable']);
      }
    }
  });

  t.test('should requeue a released job without counting the attempt', async (t) => {
    const id = await newProject();
    const d = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    const job = (await claimJob(m, 'w', at(0), 1000))!;
    await releaseJob(m, { deploymentId: d._id, fencing: job.deployment.fencing, token: job.token }, at(1));
    const after = (await m.Deployment.findById(d._id).lean())!;
    t.same([after.status, after.attempts], ['queued', 0]);
    t.equal((await claimJob(m, 'w2', at(2), 1000))?.deployment._id, d._id, 'another worker starts it at once');
  });

  t.test('should fail a job whose workers keep dying', async (t) => {
    const id = await newProject();
    const d = await enqueueDeployment(m, id, { trigger: 'manual' }, at(0));
    for (let i = 0; i < MAX_ATTEMPTS; i++) await claimJob(m, `w${i}`, at(i * 2000), 1000);
    await claimJob(m, 'w-last', at(MAX_ATTEMPTS * 2000), 1000);
    const after = (await m.Deployment.findById(d._id).lean())!;
    t.same([after.status, after.error], ['failed', poisonMessage(MAX_ATTEMPTS)]);
  });
});

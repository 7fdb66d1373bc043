import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startWorker } from '@folio/builder/internal/worker/run-worker.ts';
import { claimWaitersOf, createClaimWaiters } from '../../src/deploy/claim-waiters.ts';
import { enqueueDeployment } from '../../src/deploy/queue.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const SECRET = 'test-worker-secret';

t.test('claims that wait for work', async (t) => {
  const tp = await startTestPlatform({ BUILD_LEASE_MS: '2500' });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const waiters = claimWaitersOf(m);
  const claimUrl = `${tp.p.internalUrl}/internal/v1/jobs/claim`;
  const claim = (body: unknown, opts: { secret?: string; signal?: AbortSignal } = {}) => fetch(claimUrl, {
    method: 'POST', headers: { authorization: `Bearer ${opts.secret ?? SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: opts.signal,
  });
  /** Resolves once `n` claims wait on the control plane (the state the test needs, not a delay). */
  const waitingClaims = async (n: number) => {
    while (waiters.size !== n) await new Promise((r) => setImmediate(r));
  };
  const newProject = async () => {
    await m.Deployment.deleteMany({});
    return (await tp.api('POST', '/projects', { name: 'Wait', slug: `wait-${process.pid}-${Math.random().toString(36).slice(2, 8)}` })).body.id as string;
  };

  t.test('should hand a job queued while a claim waits to that claim', async (t) => {
    const id = await newProject();
    const answer = claim({ worker_id: 'w1', wait_ms: 30_000 });
    await waitingClaims(1);
    const queued = await enqueueDeployment(m, id, { trigger: 'push' }, new Date());
    const res = await answer;
    t.equal(res.status, 200);
    const job = await res.json() as { deployment_id: string; fencing: number };
    t.same([job.deployment_id, job.fencing], [queued._id, 1], 'the waiting claim got the job just queued');
    t.equal(waiters.size, 0);
  });

  t.test('should give one job to only one of two waiting claims, and the next job to the other', async (t) => {
    const first = await newProject();
    const second = (await tp.api('POST', '/projects', { name: 'Wait', slug: `wait2-${process.pid}` })).body.id as string;
    const a = claim({ worker_id: 'wa', wait_ms: 30_000 }).then(async (r) => ({ who: 'wa', status: r.status, body: await r.json() as { deployment_id: string } }));
    const b = claim({ worker_id: 'wb', wait_ms: 30_000 }).then(async (r) => ({ who: 'wb', status: r.status, body: await r.json() as { deployment_id: string } }));
    await waitingClaims(2);
    const one = await enqueueDeployment(m, first, { trigger: 'push' }, new Date());
    const winner = await Promise.race([a, b]);
    t.same([winner.status, winner.body.deployment_id], [200, one._id]);
    // Both were woken; the loser tried, found nothing, and waits again.
    await waitingClaims(1);
    const two = await enqueueDeployment(m, second, { trigger: 'push' }, new Date());
    const loser = await (winner.who === 'wa' ? b : a);
    t.same([loser.status, loser.body.deployment_id], [200, two._id]);
    const rows = await m.Deployment.find({}).sort({ started_at: 1 }).lean();
    t.same(rows.map((d) => [d._id, d.status, d.fencing, d.lease_owner]), [
      [one._id, 'building', 1, winner.who],
      [two._id, 'building', 1, loser.who],
    ], 'each job claimed once, by one worker');
  });

  t.test('should stop waiting when the client goes away, and leave a job queued meanwhile in the queue', async (t) => {
    const id = await newProject();
    const gone = new AbortController();
    const answer = claim({ worker_id: 'w-gone', wait_ms: 30_000 }, { signal: gone.signal }).catch((err: Error) => err.name);
    await waitingClaims(1);
    gone.abort();
    t.equal(await answer, 'AbortError');
    await waitingClaims(0);
    const queued = await enqueueDeployment(m, id, { trigger: 'push' }, new Date());
    t.equal((await m.Deployment.findById(queued._id).lean())!.status, 'queued', 'nobody claimed it for the client that left');
  });

  t.test('should hand a waiting claim the job of a builder whose lease ran out', async (t) => {
    const id = await newProject();
    const queued = await enqueueDeployment(m, id, { trigger: 'push' }, new Date());
    const first = await claim({ worker_id: 'w-dies' });
    t.equal(first.status, 200);
    // w-dies never heartbeats. The lease (2.5 s here) ends well within the wait, and before the
    // claim's 10 s re-check: only the wake at the lease's end can hand the job over in time.
    const res = await claim({ worker_id: 'w-next', wait_ms: 8_000 });
    t.equal(res.status, 200);
    const job = await res.json() as { deployment_id: string; fencing: number };
    t.same([job.deployment_id, job.fencing], [queued._id, 2], 'taken over with the next fencing token');
  });

  t.test('should check the worker secret before waiting', async (t) => {
    const res = await claim({ worker_id: 'w', wait_ms: 30_000 }, { secret: 'not-the-secret' });
    t.same([res.status, await res.json(), waiters.size], [401, { error: 'unauthorized', message: 'Invalid worker secret' }, 0]);
  });

  t.test('should refuse a wait longer than 30 s or not a whole number of milliseconds', async (t) => {
    for (const wait of [30_001, -1, 1.5, '100']) {
      const res = await claim({ worker_id: 'w', wait_ms: wait });
      t.same([res.status, await res.json()], [400, { error: 'invalid_request', message: 'wait_ms: must be a whole number of milliseconds from 0 to 30000' }], `wait_ms ${JSON.stringify(wait)}`);
    }
  });

  t.test('should answer an empty claim at once, without the waited header, when it asks for no wait', async (t) => {
    await newProject();
    const res = await claim({ worker_id: 'w' });
    t.same([res.status, res.headers.get('folio-claim-waited')], [204, null]);
  });

  t.test('should say the claim waited when its wait ended empty', async (t) => {
    await newProject();
    const res = await claim({ worker_id: 'w', wait_ms: 1 });
    t.same([res.status, res.headers.get('folio-claim-waited')], [204, '1']);
  });

  t.test('should end a worker\'s waiting claim when the worker stops', async (t) => {
    await newProject();
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-claim-wait-'));
    t.teardown(() => fs.rmSync(workDir, { recursive: true, force: true }));
    const logged: string[] = [];
    // A poll interval of an hour: only the waiting claim can be what the worker is doing.
    const worker = startWorker({ controlPlaneUrl: tp.p.internalUrl, workerSecret: SECRET, workDir, pollMs: 3_600_000, claimWaitMs: 30_000, log: (l) => logged.push(l) });
    await waitingClaims(1);
    await worker.stop();
    await worker.done;
    await waitingClaims(0);
    t.same(logged, [], 'stopping is not reported as a failed claim');
  });
});

t.test('claim waiters', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());

  t.test('should refuse to hold more claims than its bound, and wake all it holds', async (t) => {
    const waiters = createClaimWaiters(tp.p.cp.m, 2);
    const signal = new AbortController().signal;
    const g = waiters.generation;
    const held = [waiters.wait(g, 60_000, signal), waiters.wait(g, 60_000, signal)];
    t.equal(waiters.wait(g, 60_000, signal), undefined, 'a third claim does not wait');
    t.equal(waiters.size, 2);
    waiters.wake();
    await Promise.all(held);
    t.equal(waiters.size, 0);
  });

  t.test('should not wait when the queue changed since the claim looked', async (t) => {
    const waiters = createClaimWaiters(tp.p.cp.m, 2);
    const g = waiters.generation;
    waiters.wake();
    await waiters.wait(g, 60_000, new AbortController().signal);
    t.equal(waiters.size, 0);
  });
});

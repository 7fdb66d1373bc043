import t from 'tap';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { completeJob } from '../../src/deploy/queue.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';
import { openStream } from '../helpers/event-stream.ts';
import { STREAM_WINDOW } from '../../src/dashboard/deployment-stream.ts';

t.test('dashboard deployment streams', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;
  const m = api.cp.m;

  t.test('should send a project\'s deployments as they appear and change, whatever made the change', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro', 'viewer');
    const key = await api.key(orgId);
    const project = await api.project(key);
    const stream = await openStream(`${origin}/dashboard/api/projects/${project.id}/deployments/events`, auth);
    t.teardown(() => stream.close());
    t.same([stream.res.status, stream.res.headers.get('content-type')], [200, 'text/event-stream; charset=utf-8']);

    // Queued through /v1 with an API key: not through the dashboard.
    const queued = (await api.request('POST', `/projects/${project.id}/deployments`, { key })).body;
    const first = await stream.until((e) => e.id === queued.id);
    t.same(first, {
      ...queued, trigger: 'api', stats: null, commit_message: null, commit_author: null, log: [],
    }, 'the new deployment, in full');

    const job = (await claimJob(m, 'worker-1', api.clock.now))!;
    t.equal((await stream.until((e) => e.id === queued.id && e.status === 'building')).status, 'building');
    await completeJob(m, { deploymentId: job.deployment._id, fencing: job.deployment.fencing!, token: job.token }, {
      status: 'deployed', commit_sha: 'a'.repeat(40), commit_message: 'Rename the guides', commit_author: 'Ada <ada@example.com>', pages_total: 3, pages_success: 1, pages_failed: 2,
      error: 'docs/a.mdx:3:5: Unexpected end of file in expression\ndocs/b.mdx:10:1: Unexpected closing tag </Tab>',
      warnings: ['docs.json: theme: mapped to the default theme'],
      stats: { compiled: 3, uploaded: 4, deleted: 0, timings: { clone: 120, compile: 340 } },
    }, api.clock.now);
    const done = await stream.until((e) => e.id === queued.id && e.status === 'deployed');
    t.same([done.commit_message, done.commit_author], ['Rename the guides', 'Ada <ada@example.com>'], 'the commit as the builder read it (own repositories too)');
    t.same([done.pages_failed, done.log], [2, [
      'error: docs/a.mdx:3:5: Unexpected end of file in expression',
      'error: docs/b.mdx:10:1: Unexpected closing tag </Tab>',
      'warning: docs.json: theme: mapped to the default theme',
      'step clone: 120 ms',
      'step compile: 340 ms',
      'compiled 3 pages, uploaded 4 files, deleted 0 files',
      'deployed 3 pages (2 failed)',
    ]], 'the build log lists the failed pages');

    // A deployment written by another replica (no event on this one): the stream's own reads find it.
    const other = await m.Deployment.create({ project_id: project.id, status: 'queued', trigger: 'webhook', started_at: new Date(api.clock.now.getTime() + 1000), fencing: 1 });
    const seen = await stream.until((e) => e.id === other._id);
    t.same([seen.status, seen.trigger], ['queued', 'webhook']);
  });

  t.test('should send the organization\'s deployments, and nothing of another organization', async (t) => {
    const a = await dashTenant(api, 'pro', 'viewer');
    const b = await dashTenant(api, 'pro', 'viewer');
    const projectA = await api.project(await api.key(a.orgId));
    const projectB = await api.project(await api.key(b.orgId));
    const stream = await openStream(`${origin}/dashboard/api/deployments/events`, a.auth);
    t.teardown(() => stream.close());
    const other = (await api.request('POST', `/projects/${projectB.id}/deployments`, { key: await api.key(b.orgId) })).body;
    const own = (await api.request('POST', `/projects/${projectA.id}/deployments`, { key: await api.key(a.orgId) })).body;
    await stream.until((e) => e.id === own.id);
    t.same(stream.events.map((e) => e.project_id), [projectA.id], 'only its own project');
    t.notOk(stream.raw.includes(other.id));
  });

  t.test('should send the deployments of a project created after the organization\'s stream opened', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro', 'viewer');
    const key = await api.key(orgId);
    const stream = await openStream(`${origin}/dashboard/api/deployments/events`, auth);
    t.teardown(() => stream.close());
    const project = await api.project(key);
    const queued = (await api.request('POST', `/projects/${project.id}/deployments`, { key })).body;
    t.equal((await stream.until((e) => e.id === queued.id)).project_id, project.id);
  });

  t.test('should follow every deployment in progress, beyond the newest twenty, to its end', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'enterprise', 'viewer');
    const key = await api.key(orgId);
    const queued: string[] = [];
    for (let i = 0; i < STREAM_WINDOW + 10; i++) {
      const project = await api.project(key);
      queued.push((await api.request('POST', `/projects/${project.id}/deployments`, { key })).body.id);
    }
    const stream = await openStream(`${origin}/dashboard/api/deployments/events`, auth);
    t.teardown(() => stream.close());
    for (const id of queued) await stream.until((e) => e.id === id && e.status === 'queued');
    t.pass(`all ${queued.length} queued deployments sent, not only the newest ${STREAM_WINDOW}`);
    // The oldest ends: it is neither among the newest nor in progress any more, and its end is still sent.
    let job = await claimJob(m, 'worker-1', api.clock.now);
    while (job && job.deployment._id !== queued[0]) job = await claimJob(m, 'worker-1', api.clock.now);
    t.ok(job, 'the oldest deployment claimed');
    await completeJob(m, { deploymentId: job!.deployment._id, fencing: job!.deployment.fencing!, token: job!.token }, {
      status: 'deployed', commit_sha: 'b'.repeat(40), pages_total: 1, pages_success: 1, pages_failed: 0,
    }, api.clock.now);
    t.equal((await stream.until((e) => e.id === queued[0] && e.status === 'deployed')).status, 'deployed');
  });

  t.test('should mark a project failed only when nothing is live', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro', 'viewer');
    const key = await api.key(orgId);
    const project = await api.project(key);
    // Earlier subtests left deployments of other projects queued: they are out of the way.
    await m.Deployment.updateMany({ status: 'queued' }, { $set: { status: 'failed' } });
    const end = async (report: Parameters<typeof completeJob>[2]) => {
      // Each a second after the last: the newest deployment is the last one queued.
      api.clock.now = new Date(api.clock.now.getTime() + 1000);
      await api.request('POST', `/projects/${project.id}/deployments`, { key });
      const job = (await claimJob(m, 'worker-1', api.clock.now))!;
      t.equal(job.deployment.project_id, project.id);
      await completeJob(m, { deploymentId: job.deployment._id, fencing: job.deployment.fencing!, token: job.token }, report, api.clock.now);
    };
    const expected = (status: string, lastDeployAt: string | null) => ({
      id: project.id, name: project.name, slug: project.slug, status, created_at: project.created_at, github_repo: null,
      custom_domain: null, github_branch: 'main', last_deploy_at: lastDeployAt,
    });
    await end({ status: 'failed', error: 'docs.json: name: Required' });
    t.same((await api.request('GET', `/projects/${project.id}`, { key })).body, expected('failed', null), 'the first deployment failed: nothing is live');
    await end({ status: 'deployed', commit_sha: 'b'.repeat(40), pages_total: 1, pages_success: 1, pages_failed: 0 });
    const liveAt = api.clock.now.toISOString();
    await end({ status: 'failed', error: 'docs.json: name: Required' });
    t.same((await api.request('GET', `/projects/${project.id}`, { key })).body, expected('active', liveAt), 'a later failure leaves the live site');
    const dashboard = (await dash(api, 'GET', `/projects/${project.id}`, { auth })).body;
    t.same([dashboard.status, dashboard.last_deployment.status, dashboard.live_commit_sha], ['active', 'failed', 'b'.repeat(40)]);
  });

  t.test('should answer 404 for another organization\'s project stream, and 401 without a session', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const project = await api.project(await api.key(a.orgId));
    const res = await dash(api, 'GET', `/projects/${project.id}/deployments/events`, { auth: b.auth });
    t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }]);
    const none = await dash(api, 'GET', `/projects/${project.id}/deployments/events`);
    t.same([none.status, none.body], [401, { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' }]);
    const list = await dash(api, 'GET', `/projects/${project.id}/deployments`, { auth: a.auth });
    t.same([list.status, list.body], [200, { data: [] }]);
  });
});

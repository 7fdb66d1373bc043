import t from 'tap';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { completeJob } from '../../src/deploy/queue.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';

t.test('dashboard deployments, plan and analytics', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;

  t.test('should redeploy, list and stream a deployment\'s status until it ends', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro', 'member');
    const key = await api.key(orgId);
    const project = await api.project(key);
    const queued = await dash(api, 'POST', `/projects/${project.id}/deployments`, { auth });
    t.same([queued.status, queued.body.status, queued.headers.get('location')], [202, 'queued', null], 'members may redeploy');
    t.same((await dash(api, 'GET', `/projects/${project.id}/deployments`, { auth })).body.data.map((d: any) => d.id), [queued.body.id]);
    const detail = await dash(api, 'GET', `/projects/${project.id}/deployments/${queued.body.id}`, { auth });
    t.same([detail.body.trigger, detail.body.stats, detail.body.finished_at], ['manual', null, null]);

    const res = await fetch(`${origin}/dashboard/api/projects/${project.id}/deployments/${queued.body.id}/events`, { headers: { cookie: auth.cookie } });
    t.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    t.match(text, /^event: deployment\ndata: \{.*"status":"queued"/, 'the current state first');
    const job = await claimJob(api.cp.m, 'worker-1', api.clock.now);
    t.equal(job?.deployment._id, queued.body.id);
    await completeJob(api.cp.m, { deploymentId: job!.deployment._id, fencing: job!.deployment.fencing!, token: job!.token },
      { status: 'deployed', commit_sha: 'a'.repeat(40), pages_total: 1, pages_success: 1, pages_failed: 0, stats: { compiled: 1, uploaded: 3, deleted: 0, timings: { compile: 12 } } }, api.clock.now);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    const events = text.split('\n\n').filter((e) => e.startsWith('event: deployment')).map((e) => JSON.parse(e.split('\ndata: ')[1]));
    t.same(events.map((e) => e.status), ['queued', 'building', 'deployed'], 'every change, then the stream ends');
    t.same(events.at(-1).stats, { compiled: 1, uploaded: 3, deleted: 0, timings: { compile: 12 } });
    t.equal(events.at(-1).trigger, 'manual');
  });

  t.test('should say a deployment an API key triggered came from the API, and a redeploy from the dashboard', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro');
    const key = await api.key(orgId);
    const project = await api.project(key);
    const viaApi = await api.request('POST', `/projects/${project.id}/deployments`, { key });
    t.equal(viaApi.status, 202);
    t.equal((await dash(api, 'GET', `/projects/${project.id}/deployments/${viaApi.body.id}`, { auth })).body.trigger, 'api');
    const other = await api.project(key);
    const viaDashboard = await dash(api, 'POST', `/projects/${other.id}/deployments`, { auth });
    t.equal((await dash(api, 'GET', `/projects/${other.id}/deployments/${viaDashboard.body.id}`, { auth })).body.trigger, 'manual');
    t.same([(await api.cp.m.Deployment.findById(viaApi.body.id).lean())?.force, (await api.cp.m.Deployment.findById(viaDashboard.body.id).lean())?.force], [true, true], 'both build even when the commit is live');
  });

  t.test('should answer 404 for another organization\'s deployments, stream included', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const project = await api.project(await api.key(a.orgId));
    const { body: d } = await dash(api, 'POST', `/projects/${project.id}/deployments`, { auth: a.auth });
    for (const path of [`/projects/${project.id}/deployments`, `/projects/${project.id}/deployments/${d.id}`, `/projects/${project.id}/deployments/${d.id}/events`, `/projects/${project.id}/analytics/overview`]) {
      const res = await dash(api, 'GET', path, { auth: b.auth });
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], path);
    }
    const redeploy = await dash(api, 'POST', `/projects/${project.id}/deployments`, { auth: b.auth });
    t.same([redeploy.status, redeploy.body], [404, { error: 'not_found', message: 'project not found' }]);
    const noSession = await dash(api, 'GET', `/projects/${project.id}/deployments/${d.id}/events`);
    t.same([noSession.status, noSession.body], [401, { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' }]);
  });

  t.test('should show the plan with a pending downgrade, and analytics with the /v1 query rules', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'team', 'member');
    await api.cp.m.Organization.updateOne({ _id: orgId }, { $set: { pending_plan: 'pro', pending_plan_at: new Date('2030-01-01T00:00:00Z') } });
    const plan = await dash(api, 'GET', '/plan', { auth });
    t.same([plan.body.plan, plan.body.pending_plan, plan.body.pending_plan_at], [{ id: 'team', name: plan.body.plan.name }, 'pro', '2030-01-01T00:00:00.000Z']);
    t.same(plan.body.features.max_dashboard_members, { type: 'quota', quota: 15, used: 1, remaining: 14 });
    const project = await api.project(await api.key(orgId));
    const overview = await dash(api, 'GET', `/projects/${project.id}/analytics/overview?unit=day`, { auth });
    t.equal(overview.status, 200);
    t.same(overview.body.totals, (await api.request('GET', `/projects/${project.id}/analytics/overview?unit=day`, { key: await api.key(orgId) })).body.totals);
    const bad = await dash(api, 'GET', `/projects/${project.id}/analytics/breakdown?dimension=nope`, { auth });
    t.equal(bad.status, 400);
    t.equal(bad.body.error, 'invalid_request');
  });
});

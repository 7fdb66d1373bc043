/**
 * The live build log: a worker's `POST /internal/v1/jobs/:id/log` appends lines to the
 * deployment's log while it builds, the dashboard's streams send them at once, the log stays
 * bounded, and the final report's log replaces it on completion.
 */
import type Koa from 'koa';
import t from 'tap';
import { internalApi } from '../../src/build-api/internal-api.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { MAX_LOG_LINES } from '../../src/deploy/build-log.ts';
import { startTestApi, type TestApi } from '../helpers/api.ts';
import { dashTenant } from '../helpers/dashboard.ts';
import { openStream } from '../helpers/event-stream.ts';

const LEASE_LOST = { error: 'lease_lost', message: 'This build no longer holds the deployment\'s lease; another worker has taken it over or it has finished' };

t.test('live build log', async (t) => {
  let internal: Koa.Middleware | undefined;
  // The internal API beside the dashboard on one control plane (the platform mounts it the same way).
  const api: TestApi = await startTestApi({ middleware: [(ctx, next) => (internal ??= internalApi(api.cp.deps, 'test-worker-secret'))(ctx, next)] });
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;
  const m = api.cp.m;
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${origin}/internal/v1${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** A queued deployment of a new project, claimed; and the dashboard session that may watch it. */
  const claimed = async () => {
    const { auth, orgId } = await dashTenant(api, 'pro', 'viewer');
    const key = await api.key(orgId);
    const project = await api.project(key);
    const queued = (await api.request('POST', `/projects/${project.id}/deployments`, { key })).body;
    const job = (await claimJob(m, 'worker-1', api.clock.now))!;
    t.equal(job.deployment._id, queued.id);
    return { auth, project, id: queued.id as string, fencing: job.deployment.fencing!, token: job.token };
  };

  t.test('should stream the lines a worker sends before the build completes, then keep the report\'s log', async (t) => {
    const job = await claimed();
    const one = await openStream(`${origin}/dashboard/api/projects/${job.project.id}/deployments/${job.id}/events`, job.auth);
    t.teardown(() => one.close());
    const all = await openStream(`${origin}/dashboard/api/projects/${job.project.id}/deployments/events`, job.auth);
    t.teardown(() => all.close());
    t.same((await one.until((e) => e.status === 'building')).log, [], 'a claimed attempt starts with an empty log');

    t.same(await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines: ['step clone: started', 'step clone: done at 120 ms'] }), { status: 204, body: undefined });
    const first = ['step clone: started', 'step clone: done at 120 ms'];
    t.same((await one.until((e) => e.log.length === 2)).log, first, 'the deployment\'s stream');
    t.same((await all.until((e) => e.id === job.id && e.log.length === 2)).log, first, 'the project\'s stream');

    await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines: ['error: docs/a.mdx:3:5: Unexpected end of file in expression'] });
    const second = await one.until((e) => e.log.length === 3);
    t.same([second.status, second.log.at(-1)], ['building', 'error: docs/a.mdx:3:5: Unexpected end of file in expression']);

    t.same(await post(`/jobs/${job.id}/complete`, job.token, {
      fencing: job.fencing, status: 'deployed', pages_total: 2, pages_success: 1, pages_failed: 1,
      error: 'docs/a.mdx:3:5: Unexpected end of file in expression', stats: { compiled: 2, uploaded: 3, deleted: 0, timings: { clone: 120, compile: 340 } },
    }), { status: 204, body: undefined });
    const done = await one.until((e) => e.status === 'deployed');
    t.same(done.log, [
      'error: docs/a.mdx:3:5: Unexpected end of file in expression',
      'step clone: 120 ms',
      'step compile: 340 ms',
      'compiled 2 pages, uploaded 3 files, deleted 0 files',
      'deployed 2 pages (1 failed)',
    ], 'the report\'s log replaced the live one');
    t.same(await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines: ['late'] }), { status: 409, body: LEASE_LOST }, 'nothing is appended once it ended');
    t.same((await m.Deployment.findById(job.id).lean())!.log, done.log);
  });

  t.test('should refuse a stale fencing token or another build\'s token as heartbeat does', async (t) => {
    const job = await claimed();
    for (const [token, fencing] of [[job.token, job.fencing + 1], ['bt_not-this-build', job.fencing]] as const) {
      const heartbeat = await post(`/jobs/${job.id}/heartbeat`, token, { fencing });
      const log = await post(`/jobs/${job.id}/log`, token, { fencing, lines: ['step clone: started'] });
      t.same([log, heartbeat], [{ status: 409, body: LEASE_LOST }, { status: 409, body: LEASE_LOST }]);
    }
    t.same((await m.Deployment.findById(job.id).lean())!.log, [], 'nothing appended');
  });

  t.test('should answer 400 to a malformed request or one over the protocol\'s limits, 413 to a body over the route\'s limit', async (t) => {
    const job = await claimed();
    const cases: Array<[string, unknown, { error: string; message: string }]> = [
      ['no lines', { fencing: job.fencing, lines: [] }, { error: 'invalid_request', message: 'lines: Unexpected empty list; expected at least one line' }],
      ['too many lines', { fencing: job.fencing, lines: Array.from({ length: 101 }, (_, i) => `line ${i}`) }, { error: 'invalid_request', message: 'lines: Unexpected list too long; expected at most 100 lines a request' }],
      ['a line too long', { fencing: job.fencing, lines: ['x'.repeat(2001)] }, { error: 'invalid_request', message: 'lines.0: Unexpected line too long; expected at most 2000 characters' }],
      ['a line not text', { fencing: job.fencing, lines: [42] }, { error: 'invalid_request', message: 'lines.0: Unexpected number; expected string' }],
      ['an unknown field', { fencing: job.fencing, lines: ['a'], level: 'info' }, { error: 'invalid_request', message: 'level: Unexpected key' }],
      ['no fencing', { lines: ['a'] }, { error: 'invalid_request', message: 'fencing: Required' }],
      ['not JSON', '{"fencing": 1, "lines": [', { error: 'invalid_request', message: 'body: Malformed JSON; expected a JSON object' }],
    ];
    for (const [name, body, expected] of cases) t.same(await post(`/jobs/${job.id}/log`, job.token, body), { status: 400, body: expected }, name);
    // Over the route's body limit (far more than 100 lines of 2,000 characters): refused unread.
    const huge = await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines: ['x'.repeat(2 * 1024 * 1024)] });
    t.same(huge, { status: 413, body: { error: 'payload_too_large', message: 'Request body exceeds the 1048576 byte limit' } }, 'a body over the limit');
    t.same((await m.Deployment.findById(job.id).lean())!.log, [], 'nothing appended');
  });

  t.test('should keep the live log within its bounds, counting what it left out', async (t) => {
    const job = await claimed();
    for (let r = 0; r < 6; r++) {
      const lines = Array.from({ length: 100 }, (_, i) => `line ${r * 100 + i}`);
      t.equal((await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines })).status, 204);
    }
    let log = (await m.Deployment.findById(job.id).lean())!.log!;
    t.same([log.length, log[0], log.at(-2), log.at(-1)], [MAX_LOG_LINES, 'line 0', 'line 498', '… 101 more lines not kept']);
    await post(`/jobs/${job.id}/log`, job.token, { fencing: job.fencing, lines: ['one more', 'and another'] });
    log = (await m.Deployment.findById(job.id).lean())!.log!;
    t.same([log.length, log.at(-2), log.at(-1)], [MAX_LOG_LINES, 'line 498', '… 103 more lines not kept']);
  });
});

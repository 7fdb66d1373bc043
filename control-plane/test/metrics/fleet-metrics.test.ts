import t from 'tap';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { completeJob, enqueueDeployment } from '../../src/deploy/queue.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi } from '../helpers/api.ts';

/** The value of one sample line of the exposition text, e.g. `folio_builders{state="idle"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

t.test('fleet metrics', async (t) => {
  let ingested = 0;
  const api = await startTestApi({
    env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', METRICS_TOKEN: 'scrape-secret', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) }),
    analyticsCounters: () => ({ events_accepted: ingested, events_dropped: 2 }),
  });
  t.teardown(() => api.close());
  const m = api.cp.m;
  const metricsUrl = api.url.replace(/\/v1$/, '/metrics');
  const scrape = async (auth?: string) => {
    const res = await fetch(metricsUrl, { headers: auth ? { authorization: auth } : {} });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  t.test('should refuse a scrape without the metrics token', async (t) => {
    const body = { error: 'unauthorized', message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' };
    for (const auth of [undefined, 'Bearer wrong', 'Basic c2NyYXBlLXNlY3JldA==', 'Bearer scrape-secretX']) {
      const res = await scrape(auth);
      t.same([res.status, JSON.parse(res.text)], [401, body], `${auth ?? 'no header'}`);
    }
    const post = await fetch(metricsUrl, { method: 'POST', headers: { authorization: 'Bearer scrape-secret' } });
    t.same([post.status, post.headers.get('allow'), await post.json()], [405, 'GET, HEAD', { error: 'method_not_allowed', message: 'Unexpected method POST for this path; expected one of GET, HEAD' }]);
  });

  t.test('should report queue depth, waits, durations, outcomes, takeovers, builders and analytics counters', async (t) => {
    const { key } = await api.tenant('pro');
    const [a, b, c] = [(await api.project(key)).id, (await api.project(key)).id, (await api.project(key)).id];
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms);
    await enqueueDeployment(m, a, { trigger: 'push', commitSha: 'a'.repeat(40) }, at(-3000));
    await enqueueDeployment(m, b, { trigger: 'push', commitSha: 'b'.repeat(40) }, at(-1000));
    await enqueueDeployment(m, c, { trigger: 'push', commitSha: 'c'.repeat(40) }, at(0));
    // Three seconds queued, then built in four; b's builder dies and its job is taken over.
    const ja = (await claimJob(m, 'builder-1', at(0), 60_000))!;
    await completeJob(m, { deploymentId: ja.deployment._id, fencing: 1, token: ja.token }, { status: 'deployed', commit_sha: 'a'.repeat(40) }, at(4000));
    const jb = (await claimJob(m, 'builder-2', at(0), 1))!;
    t.equal(jb.deployment.project_id, b);
    const taken = (await claimJob(m, 'builder-1', at(5000), 600_000))!;
    t.same([taken.deployment._id, taken.deployment.fencing], [jb.deployment._id, 2]);
    t.equal(await claimJob(m, 'builder-3', at(5000), 60_000).then((j) => j?.deployment.project_id), c);
    await completeJob(m, { deploymentId: jb.deployment._id, fencing: 2, token: taken.token }, { status: 'failed', retryable: true, error: 'storage down' }, at(5000));
    ingested = 41;

    const res = await scrape('Bearer scrape-secret');
    t.equal(res.status, 200);
    t.equal(res.type, 'text/plain; version=0.0.4; charset=utf-8');
    const got = (series: string) => sample(res.text, series);
    t.same({
      waiting: got('folio_queue_depth{state="waiting"}'), backoff: got('folio_queue_depth{state="backoff"}'), building: got('folio_queue_depth{state="building"}'),
      waitCount: got('folio_queue_wait_seconds_count{takeover="false"}'), waitSum: got('folio_queue_wait_seconds_sum{takeover="false"}'),
      waitLe2: got('folio_queue_wait_seconds_bucket{le="2",takeover="false"}'), takeoverWaits: got('folio_queue_wait_seconds_count{takeover="true"}'),
      deployedBuilds: got('folio_build_duration_seconds_count{status="deployed"}'), deployedSeconds: got('folio_build_duration_seconds_sum{status="deployed"}'),
      deployed: got('folio_deployments_finished_total{status="deployed"}'), retried: got('folio_deployments_finished_total{status="retried"}'),
      takeovers: got('folio_lease_takeovers_total'), poison: got('folio_poison_jobs_total'),
      buildersBuilding: got('folio_builders{state="building"}'), buildersIdle: got('folio_builders{state="idle"}'),
      accepted: got('folio_analytics_ingested_total{counter="events_accepted"}'), dropped: got('folio_analytics_ingested_total{counter="events_dropped"}'),
    }, {
      waiting: 0, backoff: 1, building: 1,
      waitCount: 3, waitSum: 3 + 1 + 5, waitLe2: 1, takeoverWaits: 1,
      deployedBuilds: 1, deployedSeconds: 4,
      deployed: 1, retried: 1,
      takeovers: 1, poison: 0,
      // builder-3 holds c's lease; builder-1 and builder-2 asked for work recently and hold none now.
      buildersBuilding: 1, buildersIdle: 2,
      accepted: 41, dropped: 2,
    });
    t.match(res.text, /^folio_process_cpu_user_seconds_total /m, 'the control plane\'s process metrics too');
  });

  t.test('should be open when no token is configured', async (t) => {
    const open = await startTestApi();
    t.teardown(() => open.close());
    const res = await fetch(open.url.replace(/\/v1$/, '/metrics'));
    t.equal(res.status, 200);
    t.match(await res.text(), /^# HELP folio_queue_depth Deployments in the queue by state$/m);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createEndpoint, listDeliveries } from '../../src/outgoing-webhooks/endpoints.ts';
import { deliverDue, retryDelayMs } from '../../src/outgoing-webhooks/deliver.ts';
import { verifyWebhook } from '../../src/outgoing-webhooks/signature.ts';
import { startTestPlatform } from '../helpers/platform.ts';

interface Received { headers: http.IncomingHttpHeaders; body: string }

/** A webhook receiver on 127.0.0.1 answering `status` and recording every request. */
async function receiver(status: number): Promise<{ url: string; host: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }); res.statusCode = status; res.end('ok'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hooks`, host: `127.0.0.1:${port}`, got, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

t.test('outgoing webhooks', async (t) => {
  const good = await receiver(204);
  const bad = await receiver(500);
  t.teardown(() => Promise.all([good.close(), bad.close()]));
  const tp = await startTestPlatform({}, { services: { fetchAllowHosts: [good.host, bad.host] } });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const ctx = () => ({ m, now: new Date(), upgradeUrl: 'https://folio.dev/pricing', allowHosts: [good.host, bad.host] });
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Hooked', slug: 'hooked' })).body;
  const goodHook = await createEndpoint(ctx(), tp.orgId, project.id, { url: good.url });
  const badHook = await createEndpoint(ctx(), tp.orgId, project.id, { url: bad.url, events: ['deployment.failed', 'deployment.succeeded'] });

  t.test('should refuse private addresses and plans without the feature', async (t) => {
    const err = await createEndpoint({ ...ctx(), allowHosts: [] }, tp.orgId, project.id, { url: 'http://10.0.0.7/hook' }).catch((e) => e);
    t.same([err.status, err.code, err.message], [400, 'invalid_request', 'url: URL resolves to a private address (10.0.0.7); only public addresses are allowed']);
    const free = await tp.newOrg(`free-${process.pid}`);
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    const denied = await createEndpoint(ctx(), free.orgId, project.id, { url: good.url }).catch((e) => e);
    t.same([denied.status, denied.code, denied.extra], [402, 'plan_required', { upgrade_url: 'https://folio.dev/pricing' }]);
  });

  t.test('should deliver signed deployment.queued and deployment.succeeded events', async (t) => {
    const wc = await tp.workingCopy('hooked', { 'docs.json': JSON.stringify({ name: 'Hooked' }), 'docs/index.mdx': '# Hi\n' });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed');
    for (let i = 0; i < 200 && (good.got.length < 2 || bad.got.length < 1); i++) await new Promise((r) => setTimeout(r, 50));
    const types = good.got.map((g) => JSON.parse(g.body).type);
    t.same(types, ['deployment.queued', 'deployment.succeeded']);
    for (const g of good.got) {
      t.ok(verifyWebhook(goodHook.secret, { timestamp: String(g.headers['folio-webhook-timestamp']), signature: String(g.headers['folio-webhook-signature']) }, g.body, Math.floor(Date.now() / 1000)), 'signature verifies');
      t.notOk(verifyWebhook(goodHook.secret, { timestamp: String(g.headers['folio-webhook-timestamp']), signature: String(g.headers['folio-webhook-signature']) }, g.body, Math.floor(Date.now() / 1000) + 301), 'outside the replay window');
      t.notOk(verifyWebhook(badHook.secret, { timestamp: String(g.headers['folio-webhook-timestamp']), signature: String(g.headers['folio-webhook-signature']) }, g.body, Math.floor(Date.now() / 1000)), 'another endpoint\'s secret fails');
    }
    const succeeded = JSON.parse(good.got[1].body);
    t.same({ ...succeeded, created_at: typeof succeeded.created_at }, {
      id: `${d.id}.deployment.succeeded`, type: 'deployment.succeeded', created_at: 'string',
      data: { project: { id: project.id, slug: 'hooked', name: 'Hooked', site_url: `http://hooked.localhost:${tp.p.site.port}` }, deployment: d },
    });
    t.equal(good.got[1].headers['folio-webhook-id'], `${d.id}.deployment.succeeded`);
    t.equal(bad.got.length, 1, 'the failing endpoint subscribed to succeeded only got that');
  });

  t.test('should retry a failing receiver with exponential backoff, then give up after 24 h', async (t) => {
    await tp.p.webhooks.stop(); // from here on the test drives the clock
    const [first] = await listDeliveries(m, project.id, badHook.id, 10);
    t.same([first.status, first.attempts.length, first.attempts[0].status_code, first.attempts[0].error], ['pending', 1, 500, 'HTTP 500']);
    let at = new Date(first.next_attempt_at!);
    t.equal(at.getTime() - new Date(first.attempts[0].at).getTime(), retryDelayMs(1));
    t.equal(await deliverDue({ m, now: new Date(at.getTime() - 1), allowHosts: [good.host, bad.host] }), 0, 'nothing is due before the backoff');
    const gaps: number[] = [];
    for (let i = 0; i < 40; i++) {
      const n = await deliverDue({ m, now: at, allowHosts: [good.host, bad.host] });
      if (n === 0) break;
      const [row] = await listDeliveries(m, project.id, badHook.id, 10);
      if (row.status !== 'pending') break;
      gaps.push((new Date(row.next_attempt_at!).getTime() - at.getTime()) / 1000);
      at = new Date(row.next_attempt_at!);
    }
    t.same(gaps.slice(0, 5), [60, 120, 240, 480, 960], 'the delay doubles');
    t.equal(Math.max(...gaps), 6 * 3600, 'capped at 6 h');
    const [last] = await listDeliveries(m, project.id, badHook.id, 10);
    t.equal(last.status, 'failed');
    t.equal(bad.got.length, last.attempts.length, 'every attempt reached the receiver and is logged');
    t.ok(last.attempts.every((a) => a.status_code === 500));
    const span = new Date(last.attempts.at(-1)!.at).getTime() - new Date(last.attempts[0].at).getTime();
    t.ok(span <= 24 * 3600_000 && span > 18 * 3600_000, `retried for about 24 h (${span / 3600_000} h)`);
  });

  t.test('should pause deliveries after a downgrade and resume them on re-upgrade', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { pending_plan: 'free', pending_plan_at: new Date(Date.now() - 1000) } });
    const before = good.got.length;
    const trigger = await tp.api('POST', `/projects/${project.id}/deployments`);
    t.equal(trigger.status, 202);
    for (let i = 0; i < 100 && !(await m.WebhookMessage.exists({ event_key: `${trigger.body.id}.deployment.queued` })); i++) await new Promise((r) => setTimeout(r, 50));
    t.equal(await deliverDue({ m, now: new Date(), allowHosts: [good.host, bad.host] }), 0, 'paused: nothing sent');
    t.equal(good.got.length, before);
    const queued = await m.WebhookMessage.findOne({ event_key: `${trigger.body.id}.deployment.queued`, endpoint_id: goodHook.id }).lean();
    t.same([queued!.status, queued!.attempts.length], ['pending', 0], 'kept queued, no attempt spent');
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } });
    t.ok(await deliverDue({ m, now: new Date(), allowHosts: [good.host, bad.host] }) >= 1);
    // The deployment may have ended meanwhile: its later events are delivered in the same round.
    t.ok(good.got.slice(before).some((r) => JSON.parse(r.body).id === `${trigger.body.id}.deployment.queued`), 'resumed with the queued event');
  });
});

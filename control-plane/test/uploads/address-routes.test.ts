/**
 * The address rules where customers hand us URLs: outgoing webhook endpoints (at creation and at
 * every delivery) and `api.openapi` documents fetched for a build through the internal API.
 */
import t from 'tap';
import { createOrganization } from '../../src/admin/organizations.ts';
import { enqueueDeployment } from '../../src/deploy/queue.ts';
import { deliverDue } from '../../src/outgoing-webhooks/deliver.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import { connectionCounter, standInResolve } from '../helpers/address-probes.ts';
import type { TestApi } from '../helpers/api.ts';
import { startDnsStandIn } from '../helpers/dns-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

// [URL with PORT for the local listener, the address the refusal names]
const REFUSED: [string, string][] = [
  ['http://[::127.0.0.1]:PORT/hook', '::7f00:1'],
  ['http://[::7f00:1]:PORT/hook', '::7f00:1'],
  ['http://[::ffff:7f00:1]:PORT/hook', '::ffff:7f00:1'],
  ['http://[64:ff9b::7f00:1]:PORT/hook', '64:ff9b::7f00:1'],
  ['http://[2002:7f00:1::]:PORT/hook', '2002:7f00:1::'],
  ['http://2130706433:PORT/hook', '127.0.0.1'],
  ['http://0x7f.1:PORT/hook', '127.0.0.1'],
  ['http://127.1:PORT/hook', '127.0.0.1'],
];

// The dashboard says it in words (the rule already names the URL); a docs.json key is named as written.
const refusal = (field: string | undefined, address: string) => ({ error: 'invalid_request', message: `${field ? `${field}: ` : ''}URL resolves to a private address (${address}); only public addresses are allowed` });

t.test('address rules on customer URLs', async (t) => {
  const local = await connectionCounter();
  t.teardown(() => local.close());
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const urls = REFUSED.map(([u, a]) => [u.replace('PORT', String(local.port)), a]);

  t.test('should refuse a webhook endpoint at any spelling of a local address, connecting to nothing', async (t) => {
    const api = { url: tp.p.cp.apiUrl, cp: tp.p.cp, clock: { now: new Date() } } as unknown as TestApi;
    const org = await createOrganization(m, `hooks-${process.pid}`, 'pro');
    const user = await addUser(api, org._id, 'owner');
    const auth = await signIn(api, user.email);
    const project = await m.Project.create({ org_id: org._id, name: 'Hooks', slug: `hooks-${process.pid}`, status: 'active' });
    for (const [url, address] of urls) {
      const res = await dash(api, 'POST', `/projects/${project._id}/webhooks`, { auth, body: { url } });
      t.same([res.status, res.body], [400, refusal(undefined, address)], url);
    }
    t.equal(await m.WebhookEndpoint.countDocuments({ project_id: project._id }), 0, 'none was registered');
    t.equal(local.count(), 0, 'no connection reached 127.0.0.1');
  });

  t.test('should refuse an api.openapi URL at any spelling of a local address, connecting to nothing', async (t) => {
    const project = (await tp.api('POST', '/projects', { name: 'Spec', slug: `spec-${process.pid}` })).body;
    await enqueueDeployment(m, project.id, { trigger: 'push' }, new Date());
    const claim = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/claim`, {
      method: 'POST', headers: { authorization: `Bearer ${tp.p.workerSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ worker_id: 'address-test' }),
    });
    t.equal(claim.status, 200);
    const job = await claim.json() as { deployment_id: string; fencing: number; token: string };
    for (const [url, address] of urls) {
      const res = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/${job.deployment_id}/fetch`, {
        method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fencing: job.fencing, url, field: 'api.openapi' }),
      });
      t.same([res.status, await res.json()], [400, refusal('api.openapi', address)], url);
    }
    t.equal(local.count(), 0, 'no connection reached 127.0.0.1');
  });

  t.test('should deliver only to the address checked at delivery, whatever DNS answers next', async (t) => {
    const dns = await startDnsStandIn();
    t.teardown(() => dns.close());
    const org = await createOrganization(m, `rebind-${process.pid}`, 'pro');
    const project = await m.Project.create({ org_id: org._id, name: 'Rebind', slug: `rebind-${process.pid}`, status: 'active' });
    // Registered when the name pointed somewhere public; by delivery, DNS says public once, then 127.0.0.1.
    const endpoint = await m.WebhookEndpoint.create({ org_id: org._id, project_id: project._id, url: `http://hooks.rebind.test:${local.port}/hook`, events: ['deployment.queued'], secret: 'whsec_test', created_at: new Date() });
    await m.WebhookMessage.create({ endpoint_id: endpoint._id, org_id: org._id, project_id: project._id, event: 'deployment.queued', event_key: 'd1:deployment.queued', body: '{}', created_at: new Date(), next_attempt_at: new Date() });
    dns.addresses.set('hooks.rebind.test', [['2606:4700::1111'], ['127.0.0.1']]);
    const resolveHost = standInResolve(dns.server);
    t.equal(await deliverDue({ m, now: new Date(), resolveHost }), 1);
    t.same(dns.questions, ['ANY hooks.rebind.test'], 'one DNS question per attempt');
    const [msg] = await m.WebhookMessage.find({ endpoint_id: endpoint._id }).lean();
    t.same([msg.status, msg.attempts.length, msg.attempts[0].status_code], ['pending', 1, null], 'the attempt failed and will be retried');
    t.notMatch(msg.attempts[0].error ?? '', /private|127\.0\.0\.1/, msg.attempts[0].error ?? '');
    // The next attempt sees the new answer and refuses it before connecting.
    t.equal(await deliverDue({ m, now: new Date(Date.now() + 3600_000), resolveHost }), 1);
    const [again] = await m.WebhookMessage.find({ endpoint_id: endpoint._id }).lean();
    t.equal(again.attempts[1].error, 'url: URL resolves to a private address (127.0.0.1); only public addresses are allowed');
    t.equal(local.count(), 0, 'no connection reached 127.0.0.1');
  });
});

import t from 'tap';
import { signBody } from '../../src/webhooks/verify-signature.ts';
import { startTestApi } from '../helpers/api.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

const SECRET = 'webhook-secret-for-tests';
const SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
let delivery = 0;

t.test('GitHub webhook', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh, { GITHUB_WEBHOOK_SECRET: SECRET }) });
  t.teardown(() => api.close());
  const { key, orgId } = await api.tenant('enterprise');
  const [repo] = await gh.connect(api.cp.m, orgId, 'Acme/Docs');
  const installationId = (await api.cp.m.GithubInstallation.findOne({ org_id: orgId }).lean())!._id;
  const main = await api.project(key, { github_repo: 'Acme/Docs' });
  const mirror = await api.project(key, { github_repo: 'acme/docs' });
  const release = await api.project(key, { github_repo: 'acme/docs' });
  await api.request('PATCH', `/projects/${release.id}`, { key, body: { github_branch: 'release/v2' } });
  // Without preview deployments, only synced branches build (previews: test/paid/preview-deployments.test.ts).
  await api.cp.m.Organization.updateOne({ _id: orgId }, { $set: { plan: 'free' } });
  const queuedCount = () => api.cp.m.Deployment.countDocuments({ trigger: 'webhook' });

  // Pushes are matched by installation and repository id; the name in the payload is only shown in reasons.
  const push = (fields: Record<string, unknown> = {}) => JSON.stringify({ ref: 'refs/heads/main', after: SHA, deleted: false, installation: { id: installationId }, repository: { id: repo.id, full_name: 'Acme/Docs' }, ...fields });
  const send = (body: string, headers: Record<string, string> = {}) => api.request('POST', '/webhooks/github', {
    raw: body,
    headers: {
      'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': `d-${++delivery}`,
      'x-hub-signature-256': signBody(SECRET, Buffer.from(body)), ...headers,
    },
  });

  t.test('should refuse unsigned, wrongly signed, tampered and malformed deliveries and queue nothing', async (t) => {
    const body = push();
    const cases: [string, Record<string, string>, string, string][] = [
      ['unsigned', { 'x-hub-signature-256': '' }, body, 'Missing X-Hub-Signature-256 header; expected sha256=<HMAC-SHA256 of the body>'],
      ['wrong secret', { 'x-hub-signature-256': signBody('another-secret', Buffer.from(body)) }, body, 'X-Hub-Signature-256 does not match the body; expected a signature made with the webhook secret'],
      ['tampered body', {}, body.replace('refs/heads/main', 'refs/heads/mai'), 'X-Hub-Signature-256 does not match the body; expected a signature made with the webhook secret'],
      ['sha1 header', { 'x-hub-signature-256': `sha1=${'0'.repeat(40)}` }, body, 'Malformed X-Hub-Signature-256 header; expected sha256=<64 lowercase hex digits>'],
      ['short digest', { 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)).slice(0, -2) }, body, 'Malformed X-Hub-Signature-256 header; expected sha256=<64 lowercase hex digits>'],
      ['not hex', { 'x-hub-signature-256': `sha256=${'z'.repeat(64)}` }, body, 'Malformed X-Hub-Signature-256 header; expected sha256=<64 lowercase hex digits>'],
    ];
    for (const [name, headers, sent, message] of cases) {
      const signed: Record<string, string> = name === 'tampered body' ? { 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)) } : {};
      const res = await send(sent, { ...signed, ...headers });
      t.same([res.status, res.body], [401, { error: 'invalid_signature', message }], name);
    }
    t.equal(await queuedCount(), 0, 'nothing queued');
    t.equal(await api.cp.m.WebhookDelivery.countDocuments({}), 0, 'no delivery recorded');
  });

  t.test('should queue a sync at the pushed commit for every project on that repository and branch', async (t) => {
    const res = await send(push());
    t.equal(res.status, 202);
    const rows = await api.cp.m.Deployment.find({ trigger: 'webhook' }).lean();
    t.same(res.body, { status: 'queued', deployments: [main.id, mirror.id].map((id) => rows.find((r) => r.project_id === id)!._id) });
    t.same(rows.map((r) => [r.project_id, r.commit_sha, r.status]).sort(), [[main.id, SHA, 'queued'], [mirror.id, SHA, 'queued']].sort());
  });

  t.test('should answer a replayed delivery id as a duplicate and queue nothing', async (t) => {
    const body = push({ after: 'b'.repeat(40) });
    const first = await send(body, { 'x-github-delivery': 'replayed-1' });
    t.equal(first.status, 202);
    const before = await api.cp.m.Deployment.find({ trigger: 'webhook' }).lean();
    const again = await send(body, { 'x-github-delivery': 'replayed-1' });
    t.same([again.status, again.body], [200, { status: 'duplicate' }]);
    t.same(await api.cp.m.Deployment.find({ trigger: 'webhook' }).lean(), before, 'deployments unchanged');
  });

  t.test('should ignore pushes to other branches, other repositories, tags and deleted branches', async (t) => {
    const before = await queuedCount();
    const cases: [string, string][] = [
      [push({ ref: 'refs/heads/feature' }), 'feature is not the synced branch of any project connected to Acme/Docs, and preview deployments of other branches need the Pro plan'],
      [push({ repository: { id: repo.id + 1, full_name: 'acme/docs-old' } }), `no project is connected to acme/docs-old (repository id ${repo.id + 1}) through installation ${installationId}`],
      [push({ repository: { id: repo.id + 1, full_name: 'Acme/Docs' } }), `no project is connected to Acme/Docs (repository id ${repo.id + 1}) through installation ${installationId}`],
      [push({ installation: { id: installationId + 1 } }), `no project is connected to Acme/Docs (repository id ${repo.id}) through installation ${installationId + 1}`],
      [push({ repository: { full_name: 'Acme/Docs' } }), 'push payload without installation.id, repository.id or ref; expected a push delivered to the GitHub App'],
      [push({ ref: 'refs/tags/v1.0.0' }), 'refs/tags/v1.0.0 is not a branch'],
      [push({ deleted: true, after: '0'.repeat(40) }), 'refs/heads/main was deleted'],
    ];
    for (const [body, reason] of cases) {
      const res = await send(body);
      t.same([res.status, res.body], [200, { status: 'ignored', reason }], reason);
    }
    t.equal(await queuedCount(), before);
  });

  t.test('should queue the project whose branch was pushed', async (t) => {
    const res = await send(push({ ref: 'refs/heads/release/v2', after: 'c'.repeat(40) }));
    const row = await api.cp.m.Deployment.findOne({ project_id: release.id }).lean();
    t.same([res.status, res.body], [202, { status: 'queued', deployments: [row!._id] }]);
    t.equal(row!.commit_sha, 'c'.repeat(40));
  });

  t.test('should answer ping with pong, ignore other events and accept form-encoded payloads', async (t) => {
    const ping = await send(JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 }), { 'x-github-event': 'ping' });
    t.same([ping.status, ping.body], [200, { status: 'pong' }]);
    const issues = await send(JSON.stringify({ action: 'opened' }), { 'x-github-event': 'issues' });
    t.same([issues.status, issues.body], [200, { status: 'ignored', reason: 'issues events are not handled; only push, installation and installation_repositories' }]);
    const form = `payload=${encodeURIComponent(push({ ref: 'refs/heads/feature' }))}`;
    const res = await send(form, { 'content-type': 'application/x-www-form-urlencoded' });
    t.same([res.status, res.body], [200, { status: 'ignored', reason: 'feature is not the synced branch of any project connected to Acme/Docs, and preview deployments of other branches need the Pro plan' }]);
  });

  t.test('should refuse signed deliveries without JSON, delivery id or event', async (t) => {
    const cases: [string, Record<string, string>, string][] = [
      ['{"ref":', {}, 'body: Malformed JSON; expected a GitHub webhook payload'],
      [push(), { 'x-github-delivery': '' }, 'X-GitHub-Delivery: Required; expected the delivery id GitHub sends'],
      [push(), { 'x-github-event': '' }, 'X-GitHub-Event: Required; expected the event name GitHub sends'],
    ];
    for (const [body, headers, message] of cases) {
      const res = await send(body, headers);
      t.same([res.status, res.body], [400, { error: 'invalid_request', message }], message);
    }
  });

  t.test('should answer 503 when no webhook secret is configured', async (t) => {
    const saved = api.cp.deps.env;
    api.cp.deps.env = { ...saved, GITHUB_WEBHOOK_SECRET: undefined };
    t.teardown(() => { api.cp.deps.env = saved; });
    const res = await send(push());
    t.same([res.status, res.body], [503, { error: 'webhooks_disabled', message: 'GitHub webhooks are not enabled on this server; set GITHUB_WEBHOOK_SECRET' }]);
  });
});

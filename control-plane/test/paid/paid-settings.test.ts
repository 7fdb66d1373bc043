import t from 'tap';
import { featureLabel } from '../../dashboard-app/src/shared/labels.ts';
import { changePlan } from '../../src/admin/organizations.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, signIn } from '../helpers/dashboard.ts';

const UPGRADE = 'https://folio.dev/pricing';
const byActionOf = (entries: any[]) => Object.fromEntries(entries.map((e) => [e.action, e]));
const planRequired = (feature: string, plan: string) => ({ error: 'plan_required', message: `The ${featureLabel(feature)} feature needs the ${plan} plan or higher`, upgrade_url: UPGRADE });

t.test('paid-plan settings in the dashboard API', async (t) => {
  // Webhook URLs in these tests are public documentation addresses: registration resolves them, nothing is sent.
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const projectOf = async (orgId: string) => {
    const key = await api.key(orgId);
    return { key, project: await api.project(key) };
  };

  t.test('should gate the site password by plan and keep it read-only after a downgrade at period end', async (t) => {
    const free = await dashTenant(api, 'free');
    const { project: freeProject } = await projectOf(free.orgId);
    const denied = await dash(api, 'PUT', `/projects/${freeProject.id}/password`, { auth: free.auth, body: { password: 'long enough secret' } });
    t.same([denied.status, denied.body], [402, planRequired('password_protection', 'Pro')]);
    t.same((await dash(api, 'GET', `/projects/${freeProject.id}/password`, { auth: free.auth })).body, { enabled: false, set_at: null, editable: false });

    const pro = await dashTenant(api, 'pro');
    const { project } = await projectOf(pro.orgId);
    const short = await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: pro.auth, body: { password: 'short' } });
    t.same([short.status, short.body], [400, { error: 'invalid_request', message: 'Password must be at least 8 characters' }]);
    const set = await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: pro.auth, body: { password: 'long enough secret' } });
    t.same([set.status, set.body], [200, { enabled: true, set_at: api.clock.now.toISOString(), editable: true }]);
    const stored = await m.Project.findById(project.id).lean();
    t.match(stored!.site_password_hash, /^scrypt\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/, 'only a hash is stored');
    const noCsrf = await dash(api, 'DELETE', `/projects/${project.id}/password`, { auth: pro.auth, noCsrf: true });
    t.equal(noCsrf.status, 403);
    const other = await dashTenant(api, 'pro');
    t.same((await dash(api, 'GET', `/projects/${project.id}/password`, { auth: other.auth })).body, { error: 'not_found', message: 'project not found' });
    const member = await addUser(api, pro.orgId, 'member');
    const asMember = await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: await signIn(api, member.email), body: { password: 'long enough secret' } });
    t.same([asMember.status, asMember.body.error], [403, 'forbidden_role']);

    const org = await m.Organization.findById(pro.orgId).lean();
    const change = await changePlan(m, org!.handle, 'free', api.clock.now);
    t.equal((await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: pro.auth, body: { password: 'still allowed now' } })).status, 200, 'pro until the period ends');
    const saved = api.clock.now;
    api.clock.now = new Date((change.effective as Date).getTime() + 1000);
    t.teardown(() => { api.clock.now = saved; });
    // The period may end weeks after sign-in, past the session's idle expiry: sign in again then.
    pro.auth = await signIn(api, pro.email);
    const after = await dash(api, 'GET', `/projects/${project.id}/password`, { auth: pro.auth });
    t.same([after.body.enabled, after.body.editable], [true, false]);
    for (const method of ['PUT', 'DELETE']) {
      const res = await dash(api, method, `/projects/${project.id}/password`, { auth: pro.auth, ...(method === 'PUT' ? { body: { password: 'changed later on' } } : {}) });
      t.same([res.status, res.body], [402, planRequired('password_protection', 'Pro')], method);
    }
    await changePlan(m, org!.handle, 'pro', api.clock.now);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}/password`, { auth: pro.auth })).status, 204, 'upgrade mid-period makes it editable at once');
    api.clock.now = saved;
  });

  t.test('should document the webhook events in the OpenAPI document', async (t) => {
    const doc = (await api.request('GET', '/openapi.json')).body;
    t.same(Object.keys(doc.webhooks), ['deployment.queued', 'deployment.succeeded', 'deployment.failed']);
    const op = doc.webhooks['deployment.failed'].post;
    t.same(op.parameters.map((p: any) => p.name), ['Folio-Webhook-Id', 'Folio-Webhook-Event', 'Folio-Webhook-Timestamp', 'Folio-Webhook-Signature']);
    t.match(op.description, /HMAC-SHA256.*300 s.*24 h/s);
    t.same(op.requestBody.content['application/json'].schema.properties.type, { type: 'string', const: 'deployment.failed' });
  });

  t.test('should register, list and remove webhook endpoints on pro and refuse them on free', async (t) => {
    const free = await dashTenant(api, 'free');
    const { project: freeProject } = await projectOf(free.orgId);
    const denied = await dash(api, 'POST', `/projects/${freeProject.id}/webhooks`, { auth: free.auth, body: { url: 'https://93.184.215.14/hook' } });
    t.same([denied.status, denied.body], [402, planRequired('outgoing_webhooks', 'Pro')]);
    const pro = await dashTenant(api, 'pro');
    const { project } = await projectOf(pro.orgId);
    const loopback = await dash(api, 'POST', `/projects/${project.id}/webhooks`, { auth: pro.auth, body: { url: 'http://127.0.0.1:9/hook' } });
    t.same([loopback.status, loopback.body], [400, { error: 'invalid_request', message: 'URL resolves to a private address (127.0.0.1); only public addresses are allowed' }]);
    const badEvent = await dash(api, 'POST', `/projects/${project.id}/webhooks`, { auth: pro.auth, body: { url: 'https://93.184.215.14/hook', events: ['deployment.started'] } });
    t.equal(badEvent.status, 400);
    const created = await dash(api, 'POST', `/projects/${project.id}/webhooks`, { auth: pro.auth, body: { url: 'https://93.184.215.14/hook', events: ['deployment.failed'] } });
    t.equal(created.status, 201);
    t.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await dash(api, 'GET', `/projects/${project.id}/webhooks`, { auth: pro.auth });
    t.same(list.body, { data: [{ id: created.body.id, url: 'https://93.184.215.14/hook', events: ['deployment.failed'], created_at: api.clock.now.toISOString() }] });
    t.same((await dash(api, 'GET', `/projects/${project.id}/webhooks/${created.body.id}/deliveries`, { auth: pro.auth })).body, { data: [] });
    const other = await dashTenant(api, 'pro');
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}/webhooks/${created.body.id}`, { auth: other.auth })).status, 404);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}/webhooks/${created.body.id}`, { auth: pro.auth })).status, 204);
    t.same((await dash(api, 'GET', `/projects/${project.id}/webhooks/${created.body.id}/deliveries`, { auth: pro.auth })).body, { error: 'not_found', message: 'webhook not found' });
  });

  t.test('should record an audit entry for each action and serve it on team with filters and paging', async (t) => {
    const team = await dashTenant(api, 'team');
    const { key, project } = await projectOf(team.orgId);
    const org = await m.Organization.findById(team.orgId).lean();
    await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: team.auth, body: { password: 'long enough secret' } });
    const hook = await dash(api, 'POST', `/projects/${project.id}/webhooks`, { auth: team.auth, body: { url: 'https://93.184.215.14/hook' } });
    await dash(api, 'DELETE', `/projects/${project.id}/webhooks/${hook.body.id}`, { auth: team.auth });
    await dash(api, 'DELETE', `/projects/${project.id}/password`, { auth: team.auth });
    t.equal((await api.request('POST', `/projects/${project.id}/deployments`, { key })).status, 202);
    await changePlan(m, org!.handle, 'enterprise', api.clock.now);
    const newKey = await dash(api, 'POST', '/api-keys', { auth: team.auth, body: { name: 'ci' } });
    t.equal(newKey.status, 201);
    t.equal((await dash(api, 'PATCH', `/api-keys/${newKey.body.key.id}`, { auth: team.auth, body: { name: 'ci-2' } })).status, 200);
    t.equal((await dash(api, 'DELETE', `/api-keys/${newKey.body.key.id}`, { auth: team.auth })).status, 204);
    const created = await dash(api, 'POST', '/projects', { auth: team.auth, body: { name: 'Audited' } });
    t.equal(created.status, 201);
    t.equal((await dash(api, 'PATCH', `/projects/${created.body.id}`, { auth: team.auth, body: { name: 'Audited Docs' } })).status, 200);
    t.equal((await dash(api, 'DELETE', `/projects/${created.body.id}`, { auth: team.auth })).status, 204);
    t.equal((await dash(api, 'POST', `/projects/${project.id}/domains`, { auth: team.auth, body: { hostname: `docs-${process.pid}.example.com` } })).status, 201);
    t.equal((await dash(api, 'POST', '/invitations', { auth: team.auth, body: { email: 'new.member@example.com', role: 'member' } })).status, 201);
    t.equal((await dash(api, 'POST', `/projects/${project.id}/deployments`, { auth: team.auth })).status, 202);
    const role = await dash(api, 'POST', '/roles', { auth: team.auth, body: { name: 'Writers', permissions: ['projects.read'] } });
    t.equal(role.status, 201);
    t.equal((await dash(api, 'PATCH', `/roles/${role.body.id}`, { auth: team.auth, body: { name: 'Readers' } })).status, 200);
    t.equal((await dash(api, 'DELETE', `/roles/${role.body.id}`, { auth: team.auth })).status, 204);
    const colleague = await addUser(api, team.orgId, 'viewer');
    t.equal((await dash(api, 'PATCH', `/members/${colleague.userId}`, { auth: team.auth, body: { role: 'editor' } })).status, 200);
    t.equal((await dash(api, 'DELETE', `/members/${colleague.userId}`, { auth: team.auth })).status, 204);

    const all = await dash(api, 'GET', '/audit-log', { auth: team.auth });
    t.equal(all.status, 200);
    t.same(all.body.data.map((e: any) => e.action).sort(), [
      'api_key.created', 'api_key.deleted', 'api_key.updated', 'deployment.triggered', 'deployment.triggered', 'domain.added', 'member.invited', 'member.removed', 'member.role_changed', 'plan.changed',
      'project.created', 'project.deleted', 'project.renamed', 'role.created', 'role.deleted', 'role.updated', 'session.signed_in', 'site_password.removed', 'site_password.set', 'webhook.created', 'webhook.deleted',
    ]);
    t.same(byActionOf(all.body.data)['member.role_changed'].details, { from: 'viewer', to: 'editor' });
    // Both triggers share the test clock's time, so their order in the log is not asserted.
    const triggers = all.body.data.filter((e: any) => e.action === 'deployment.triggered');
    const byUser = triggers.find((e: any) => e.actor.user_id === team.userId);
    const byKey = triggers.find((e: any) => e.actor.user_id === null);
    t.ok(byUser && byKey, 'the dashboard redeploy names the user, the API call its key');
    t.same(byActionOf(all.body.data)['member.invited'].details, { role: 'member' });
    t.same(byActionOf(all.body.data)['domain.added'].target, { type: 'domain', id: `docs-${process.pid}.example.com`, name: project.slug });
    t.same(byActionOf(all.body.data)['project.renamed'].details, { name: { from: 'Audited', to: 'Audited Docs' } });
    t.same(byActionOf(all.body.data)['api_key.updated'].target, { type: 'api_key', id: newKey.body.key.id, name: 'ci-2' });
    const byAction = byActionOf(all.body.data);
    t.same(byAction['site_password.set'].actor, { user_id: team.userId, label: null });
    t.same(byAction['site_password.set'].target, { type: 'project', id: project.id, name: project.slug });
    t.match(byAction['site_password.set'].ip_hash, /^[0-9a-f]{32}$/);
    t.equal(byAction['site_password.set'].ip_hash, byAction['session.signed_in'].ip_hash, 'one address, one hash');
    t.same(byAction['plan.changed'].actor, { user_id: null, label: 'operator' });
    t.same(byAction['plan.changed'].details, { from: 'team', to: 'enterprise', effective: 'now' });
    t.match(byKey?.actor.label, /^api key [A-Za-z0-9]+$/);
    t.notOk(JSON.stringify(all.body).includes('127.0.0.1'), 'no address is stored');

    const filtered = await dash(api, 'GET', '/audit-log?action=webhook.created', { auth: team.auth });
    t.same(filtered.body.data.map((e: any) => e.action), ['webhook.created']);
    const mine = await dash(api, 'GET', `/audit-log?actor=${team.userId}`, { auth: team.auth });
    t.equal(mine.body.data.length, 19, 'every dashboard action of the user');
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page: any = await dash(api, 'GET', `/audit-log?limit=3${before ? `&before=${before}` : ''}`, { auth: team.auth });
      seen.push(...page.body.data.map((e: any) => e.id));
      before = page.body.next_before;
    } while (before);
    t.same(seen, all.body.data.map((e: any) => e.id), 'pages follow each other without gaps or repeats');
    const bad = await dash(api, 'GET', '/audit-log?before=00000000-0000-4000-8000-000000000000', { auth: team.auth });
    t.same([bad.status, bad.body], [400, { error: 'invalid_request', message: 'Before: Unknown entry id; expected the next_before of a previous page' }]);
    const other = await dashTenant(api, 'team');
    t.same((await dash(api, 'GET', '/audit-log', { auth: other.auth })).body.data.map((e: any) => e.action), ['session.signed_in'], 'one organization\'s log only');
    const pro = await dashTenant(api, 'pro');
    t.same((await dash(api, 'GET', '/audit-log', { auth: pro.auth })).body, planRequired('audit_log', 'Team'));
    const err = await m.AuditEntry.updateOne({ org_id: team.orgId }, { $set: { action: 'plan.changed' } }).catch((e: Error) => e);
    t.equal((err as Error).message, 'The audit log is append-only');
    t.equal((await m.AuditEntry.deleteMany({ org_id: team.orgId }).catch((e: Error) => e) as Error).message, 'The audit log is append-only');
  });
});

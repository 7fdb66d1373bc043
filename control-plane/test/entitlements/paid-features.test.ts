import t from 'tap';
import { changePlan } from '../../src/admin/organizations.ts';
import { requireFeature } from '../../src/entitlements/resolver.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant, signIn } from '../helpers/dashboard.ts';

const FEATURES = ['preview_deployments', 'password_protection', 'custom_css', 'outgoing_webhooks', 'audit_log'] as const;
const EXPECTED: Record<string, boolean[]> = {
  free: [false, false, false, false, false],
  pro: [true, true, true, true, false],
  team: [true, true, true, true, true],
  enterprise: [true, true, true, true, true],
};

t.test('paid-plan feature gates', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const enabled = async (key: string) => {
    const f = (await api.request('GET', '/me/entitlements', { key })).body.features;
    return FEATURES.map((name) => f[name].enabled);
  };

  t.test('should gate each feature by plan, in the entitlements object and in the server check alike', async (t) => {
    for (const [plan, expected] of Object.entries(EXPECTED)) {
      const { orgId, key } = await api.tenant(plan as 'free');
      t.same(await enabled(key), expected, plan);
      for (const [i, feature] of FEATURES.entries()) {
        const err = await requireFeature(m, orgId, feature, api.clock.now, 'https://folio.dev/pricing').then(() => undefined, (e) => e);
        t.equal(err === undefined, expected[i], `${plan} ${feature}`);
        if (err) t.same([err.status, err.code, err.extra], [402, 'plan_required', { upgrade_url: 'https://folio.dev/pricing' }]);
      }
    }
  });

  t.test('should grant features at once on an upgrade mid-period', async (t) => {
    const { orgId, key } = await api.tenant('free');
    const org = await m.Organization.findById(orgId).lean();
    await changePlan(m, org!.handle, 'team', api.clock.now);
    t.same(await enabled(key), EXPECTED.team);
  });

  t.test('should keep features until the period ends on a downgrade, then apply each rule-6 behaviour', async (t) => {
    const tenant = await dashTenant(api, 'team');
    const key = await api.key(tenant.orgId);
    const project = await api.project(key);
    const org = await m.Organization.findById(tenant.orgId).lean();
    t.equal((await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: tenant.auth, body: { password: 'long enough secret' } })).status, 200);
    const change = await changePlan(m, org!.handle, 'free', api.clock.now);
    t.same(await enabled(key), EXPECTED.team, 'unchanged before the period ends');
    t.equal((await dash(api, 'GET', '/audit-log', { auth: tenant.auth })).status, 200);
    const saved = api.clock.now;
    t.teardown(() => { api.clock.now = saved; });
    api.clock.now = new Date((change.effective as Date).getTime());
    t.same(await enabled(key), EXPECTED.free, 'the downgrade applies at the period end');
    // The period may end weeks after sign-in, past the session's idle expiry: sign in again then.
    tenant.auth = await signIn(api, tenant.email);
    // Password protection: the site stays protected, the settings read-only.
    const pw = await dash(api, 'GET', `/projects/${project.id}/password`, { auth: tenant.auth });
    t.same([pw.body.enabled, pw.body.editable], [true, false]);
    t.equal((await dash(api, 'PUT', `/projects/${project.id}/password`, { auth: tenant.auth, body: { password: 'another secret' } })).status, 402);
    // Audit log: readable again after an upgrade (recording never stopped).
    t.equal((await dash(api, 'GET', '/audit-log', { auth: tenant.auth })).status, 402);
    await changePlan(m, org!.handle, 'team', api.clock.now);
    const log = await dash(api, 'GET', '/audit-log?action=plan.changed', { auth: tenant.auth });
    t.same(log.body.data.map((e: any) => e.details.to), ['team', 'free']);
    api.clock.now = saved;
  });
});

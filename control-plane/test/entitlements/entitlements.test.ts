import t from 'tap';
import { changePlan } from '../../src/admin/organizations.ts';
import { consumeQuota } from '../../src/entitlements/quota.ts';
import { startTestApi } from '../helpers/api.ts';

const bool = (enabled: boolean) => ({ type: 'boolean', enabled });
const quota = (q: number | null, used: number) => ({ type: 'quota', quota: q, used, remaining: q === null ? null : Math.max(0, q - used) });

t.test('entitlements and quotas', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;

  t.test('should describe the free plan exactly', async (t) => {
    const { key } = await api.tenant('free');
    const res = await api.request('GET', '/me/entitlements', { key });
    t.equal(res.status, 200);
    t.same(res.body, {
      plan: { id: 'free', name: 'Free' },
      status: 'active',
      features: {
        mcp_server: bool(true), llm_text_export: bool(true), web_editor: bool(true), live_preview: bool(true),
        basic_analytics: bool(true), audience_split: bool(true), preview_deployments: bool(false), inline_ai: bool(false),
        multi_user_collaboration: bool(false), writing_agent: bool(false), password_protection: bool(false),
        auth_gated_pages: bool(false), outgoing_webhooks: bool(false), chat_notifications: bool(false), custom_css: bool(false),
        single_sign_on: bool(false), audit_log: bool(false), white_labeling: bool(false), custom_roles: bool(false),
        self_updating_workflows: bool(false),
        max_projects: quota(1, 0), max_dashboard_members: quota(1, 1), max_custom_domains: quota(1, 0),
        assistant_messages_daily: quota(10, 0), agent_credits_monthly: quota(0, 0),
      },
      overage: [{ feature: 'agent_credits_monthly', period_start: res.body.overage[0].period_start, period_end: res.body.overage[0].period_end, credits: 0, unit_price_usd: 0.01, amount_usd: 0 }],
    });
    t.match(res.body.overage[0].period_start, /^\d{4}-\d\d-01T00:00:00\.000Z$/);
  });

  t.test('should show each plan\'s caps and gates', async (t) => {
    const expect = {
      pro: { max_projects: null, max_custom_domains: 5, assistant_messages_daily: 500, agent_credits_monthly: 5000, custom_css: true, audit_log: false },
      team: { max_projects: null, max_custom_domains: 15, assistant_messages_daily: null, agent_credits_monthly: 25000, custom_css: true, audit_log: true },
      enterprise: { max_projects: null, max_custom_domains: null, assistant_messages_daily: null, agent_credits_monthly: null, custom_css: true, audit_log: true },
    } as const;
    for (const [plan, e] of Object.entries(expect)) {
      const { key } = await api.tenant(plan as 'pro');
      const f = (await api.request('GET', '/me/entitlements', { key })).body.features;
      t.same([f.max_projects.quota, f.max_custom_domains.quota, f.assistant_messages_daily.quota, f.agent_credits_monthly.quota, f.custom_css.enabled, f.audit_log.enabled],
        [e.max_projects, e.max_custom_domains, e.assistant_messages_daily, e.agent_credits_monthly, e.custom_css, e.audit_log], plan);
    }
  });

  t.test('should refuse a project past max_projects with an upgrade link', async (t) => {
    const { key } = await api.tenant('free');
    await api.project(key);
    const res = await api.request('POST', '/projects', { key, body: { name: 'Second', slug: `second-${process.pid}` } });
    t.equal(res.status, 402);
    t.same(res.body, { error: 'plan_limit_reached', message: 'Your Free plan allows 1 project; upgrade to create more', upgrade_url: 'https://folio.dev/pricing' });
    const ent = (await api.request('GET', '/me/entitlements', { key })).body;
    t.same(ent.features.max_projects, quota(1, 1));
  });

  t.test('should let exactly max_projects of many concurrent creations through', async (t) => {
    const { orgId, key } = await api.tenant('free');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.request('POST', '/projects', { key, body: { name: `Race ${i}`, slug: `race-${process.pid}-${i}` } })));
    t.same(results.map((r) => r.status).sort(), [201, ...Array(9).fill(402)]);
    t.equal(await m.Project.countDocuments({ org_id: orgId }), 1);
  });

  t.test('should answer 402 plan_required for a feature the plan lacks', async (t) => {
    const { key } = await api.tenant('pro');
    const res = await api.request('GET', '/scim/v2/Users', { key });
    t.equal(res.status, 402);
    // SCIM clients read the SCIM error schema; the platform's error and message stay beside it.
      t.same(res.body, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '402', detail: 'The Single sign-on (SSO) feature needs the Team plan or higher',
        error: 'plan_required', message: 'The Single sign-on (SSO) feature needs the Team plan or higher', upgrade_url: 'https://folio.dev/pricing',
      });
    const team = await api.tenant('team');
    t.same((await api.request('GET', '/scim/v2/Users', { key: team.key })).body.totalResults, 0);
  });

  t.test('should give exactly L of 200 concurrent consumes at a cap of L', async (t) => {
    const { orgId, key } = await api.tenant('free');
    const L = 10;
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => consumeQuota(m, orgId, 'assistant_messages_daily', 1, api.clock.now)));
    t.equal(results.filter((r) => r.status === 'fulfilled').length, L);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.equal(refused.length, 200 - L);
    t.ok(refused.every((r) => r.reason.status === 429 && r.reason.code === 'quota_exceeded'));
    const ent = (await api.request('GET', '/me/entitlements', { key })).body;
    t.same(ent.features.assistant_messages_daily, quota(L, L), 'the counter ends at L');
  });

  t.test('should leave the counter unchanged on 429 and say when it resets', async (t) => {
    const { orgId } = await api.tenant('free');
    const now = new Date(Date.UTC(2026, 10, 22, 23, 59, 30));
    await consumeQuota(m, orgId, 'assistant_messages_daily', 8, now);
    const err = await consumeQuota(m, orgId, 'assistant_messages_daily', 3, now).catch((e) => e);
    t.same([err.status, err.code, err.message, err.headers],
      [429, 'quota_exceeded', 'Your plan allows 10 assistant messages a day, all used; it resets at 2026-11-23T00:00:00.000Z', { 'Retry-After': '30' }]);
    t.same((await consumeQuota(m, orgId, 'assistant_messages_daily', 2, now)).used, 10, 'the refused 3 were not counted');
    const next = await consumeQuota(m, orgId, 'assistant_messages_daily', 1, new Date(Date.UTC(2026, 10, 23, 0, 0, 0)));
    t.same(next.used, 1, 'a new day starts at zero at 00:00 UTC');
  });

  t.test('should reset monthly credits on the 1st and record pro overage', async (t) => {
    const { orgId } = await api.tenant('pro');
    const nov = new Date(Date.UTC(2026, 10, 30, 12));
    await consumeQuota(m, orgId, 'agent_credits_monthly', 4990, nov);
    const over = await consumeQuota(m, orgId, 'agent_credits_monthly', 25, nov);
    t.same(over, { used: 5015, quota: 5000, remaining: 0, overage: 15 });
    const counter = await m.UsageCounter.findOne({ org_id: orgId, feature: 'agent_credits_monthly' }).lean();
    t.equal(counter!.overage, 15, 'overage recorded for billing');
    const dec = await consumeQuota(m, orgId, 'agent_credits_monthly', 1, new Date(Date.UTC(2026, 11, 1)));
    t.same(dec.used, 1);
    const free = await api.tenant('free');
    const err = await consumeQuota(m, free.orgId, 'agent_credits_monthly', 1, nov).catch((e) => e);
    t.same([err.status, err.headers], [429, { 'Retry-After': String(12 * 3600) }], 'free has no credits and no overage');
  });

  t.test('should keep usage across an upgrade and apply a downgrade at the period end', async (t) => {
    const org = await api.org('free');
    const now = new Date(Date.UTC(2026, 10, 10, 8));
    await consumeQuota(m, org.id, 'assistant_messages_daily', 10, now);
    await changePlan(m, org.handle, 'pro', now);
    t.same((await consumeQuota(m, org.id, 'assistant_messages_daily', 1, now)).used, 11, 'upgrade keeps usage and applies the higher cap');
    await consumeQuota(m, org.id, 'assistant_messages_daily', 100, now);
    const change = await changePlan(m, org.handle, 'free', now);
    t.same(change.effective, new Date(Date.UTC(2026, 11, 1)));
    t.same((await consumeQuota(m, org.id, 'assistant_messages_daily', 1, now)).quota, 500, 'still pro until the period ends');
    const dec = new Date(Date.UTC(2026, 11, 1, 0, 0, 1));
    const key = await api.key(org.id);
    api.clock.now = dec;
    const ent = (await api.request('GET', '/me/entitlements', { key })).body;
    api.clock.now = new Date();
    t.same(ent.plan, { id: 'free', name: 'Free' }, 'downgrade applied at the period end');
    t.same(ent.features.max_projects.quota, 1);
  });

  t.test('should keep usage against the lower cap after an immediate downgrade', async (t) => {
    const org = await api.org('pro');
    const now = new Date(Date.UTC(2026, 10, 10, 8));
    await consumeQuota(m, org.id, 'assistant_messages_daily', 50, now);
    await changePlan(m, org.handle, 'free', now, true);
    const err = await consumeQuota(m, org.id, 'assistant_messages_daily', 1, now).catch((e) => e);
    t.equal(err.status, 429, 'denied until the next reset');
    t.same((await consumeQuota(m, org.id, 'assistant_messages_daily', 1, new Date(Date.UTC(2026, 10, 11)))).used, 1);
  });

  t.test('should keep projects beyond a downgraded limit readable but refuse new ones', async (t) => {
    const org = await api.org('pro');
    const key = await api.key(org.id);
    const a = await api.project(key);
    const b = await api.project(key);
    await changePlan(m, org.handle, 'free', new Date(), true);
    t.equal((await api.request('GET', '/projects', { key })).body.total, 2);
    t.equal((await api.request('GET', `/projects/${a.id}`, { key })).status, 200);
    t.equal((await api.request('PATCH', `/projects/${b.id}`, { key, body: { name: 'Still editable' } })).status, 200);
    t.equal((await api.request('POST', '/projects', { key, body: { name: 'C', slug: `c-${process.pid}` } })).status, 402);
  });
});

import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { estimateCredits, holdCredits } from '../../src/ai-writing/credits.ts';
import { usageLedgerModel } from '../../src/ai-writing/usage-ledger.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant, type DashboardAuth } from '../helpers/dashboard.ts';
import { readEvents, startModelStandIn } from './model-stand-in.ts';

t.test('agent credits: the usage ledger, the month\'s overage, and no overspending under concurrency', async (t) => {
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const envVars = { API_PORT: '0', LOG_LEVEL: 'silent', AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host, ASSISTANT_LLM_TIMEOUT_MS: '5000', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) };
  const env = parseEnv(envVars);
  const api = await startTestApi({ env });
  t.teardown(() => api.close());
  const ledger = usageLedgerModel(api.cp.m);
  const counter = async (orgId: string) => api.cp.m.UsageCounter.findOne({ org_id: orgId, feature: 'agent_credits_monthly' }).lean();
  const ai = async (auth: DashboardAuth, projectId: string, body: unknown) => {
    const res = await fetch(`${new URL(api.url).origin}/dashboard/api/projects/${projectId}/editor/ai`, {
      method: 'POST', headers: { cookie: auth.cookie, 'x-csrf-token': auth.csrf, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) return { status: res.status, events: await readEvents(res), body: undefined as any };
    return { status: res.status, events: [], body: await res.json() };
  };
  const setup = async (plan: 'pro' | 'enterprise') => {
    const tenant = await dashTenant(api, 'pro');
    if (plan === 'enterprise') await api.cp.m.Organization.updateOne({ _id: tenant.orgId }, { $set: { plan: 'enterprise' } });
    const key = await api.key(tenant.orgId);
    const project = await api.project(key);
    await saveSettings(api.cp.m, env, tenant.orgId, { base_url: model.url, model: 'writer-1', api_key: 'sk-ledger-test-key' }, api.clock.now);
    return { ...tenant, key, project };
  };
  const entitlements = async (key: string) => {
    const res = await fetch(`${api.url}/me/entitlements`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() as any };
  };

  t.test('should write one ledger line per metered call and show the month\'s overage on pro', async (t) => {
    const pro = await setup('pro');
    model.script.push({ text: 'one', tokens: 1_200 });
    const first = await ai(pro.auth, pro.project.id, { action: 'rewrite', text: 'x' });
    t.equal(first.status, 200);
    const lines = await ledger.find({ org_id: pro.orgId }).lean();
    t.equal(lines.length, 1);
    t.match(lines[0], { org_id: pro.orgId, project_id: pro.project.id, feature: 'inline_ai', run_id: null, tokens: 1_200, credits: 2, over_cap: 0 });
    t.ok(lines[0].at instanceof Date);

    await api.cp.m.UsageCounter.updateOne({ org_id: pro.orgId, feature: 'agent_credits_monthly' }, { $set: { used: 4_999 } });
    model.script.push({ text: 'Over the cap.', tokens: 2_500 });
    const over = await ai(pro.auth, pro.project.id, { action: 'rewrite', text: 'x' });
    t.equal(over.events.at(-1)!.data.usage.credits, 3, 'pro keeps working past the cap');
    const all = await ledger.find({ org_id: pro.orgId }).lean();
    t.same(all.map((l) => [l.credits, l.over_cap]).sort(), [[2, 0], [3, 2]], '1 credit within the cap, 2 past it');
    t.same([(await counter(pro.orgId))!.used, (await counter(pro.orgId))!.overage], [5_002, 2]);

    const ent = await entitlements(pro.key);
    t.equal(ent.status, 200);
    t.same(ent.body.features.agent_credits_monthly, { type: 'quota', quota: 5_000, used: 5_002, remaining: 0 }, 'the existing fields are unchanged');
    const month = new Date(Date.UTC(api.clock.now.getUTCFullYear(), api.clock.now.getUTCMonth(), 1));
    const next = new Date(Date.UTC(api.clock.now.getUTCFullYear(), api.clock.now.getUTCMonth() + 1, 1));
    t.same(ent.body.overage, [{ feature: 'agent_credits_monthly', period_start: month.toISOString(), period_end: next.toISOString(), credits: 2, unit_price_usd: 0.01, amount_usd: 0.02 }]);
    const plan = await dash(api, 'GET', '/plan', { auth: pro.auth });
    t.same(plan.body.overage, ent.body.overage, 'the plan page reads the same line');
  });

  t.test('should refuse a call past a cap without overage with 429 and leave the counter and the ledger unchanged', async (t) => {
    // Inline AI is a Pro feature, so the free plan's 0 credits are met through an enterprise
    // organization with a custom cap of 0: the same rule, a cap without overage.
    const ent = await setup('enterprise');
    await api.cp.m.Organization.updateOne({ _id: ent.orgId }, { $set: { agent_credits_cap: 0 } });
    const sent = model.requests.length;
    const res = await ai(ent.auth, ent.project.id, { action: 'rewrite', text: 'x' });
    t.equal(res.status, 429);
    t.equal(res.body.error, 'quota_exceeded');
    t.match(res.body.message, /^Your plan allows 0 agent credits a month, all used; it resets at /);
    t.equal(model.requests.length, sent, 'the model is never asked');
    t.equal((await counter(ent.orgId))?.used ?? 0, 0);
    t.equal(await ledger.countDocuments({ org_id: ent.orgId }), 0);
    const e = await entitlements(ent.key);
    t.same(e.body.features.agent_credits_monthly, { type: 'quota', quota: 0, used: 0, remaining: 0 });
    t.same(e.body.overage[0].credits, 0);
  });

  t.test('should never take a custom cap past its limit with 50 concurrent calls against a nearly full counter', async (t) => {
    const ent = await setup('enterprise');
    await api.cp.m.Organization.updateOne({ _id: ent.orgId }, { $set: { agent_credits_cap: 1_000 } });
    await api.cp.m.UsageCounter.create({ org_id: ent.orgId, feature: 'agent_credits_monthly', period_start: new Date(Date.UTC(api.clock.now.getUTCFullYear(), api.clock.now.getUTCMonth(), 1)), used: 990, overage: 0 });
    // All 50 are sent at once; each reports 1,500 tokens (2 credits) against the 10 credits left.
    const fallback = model.fallback;
    model.fallback = () => ({ text: 'Reworded.', tokens: 1_500 });
    t.teardown(() => { model.fallback = fallback; });
    const results = await Promise.all(Array.from({ length: 50 }, () => ai(ent.auth, ent.project.id, { action: 'rewrite', text: 'A sentence to reword.' })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    t.equal(ok.length + refused.length, 50, 'every call either answered or was refused');
    t.ok(refused.every((r) => r.body.error === 'quota_exceeded'));
    const c = await counter(ent.orgId);
    t.ok(c!.used <= 1_000, `the counter stays within the cap (${c!.used})`);
    t.equal(c!.overage, 0, 'a custom cap has no overage');
    const charged = ok.reduce((n, r) => n + r.events.at(-1)!.data.usage.credits, 0);
    t.equal(c!.used - 990, charged, 'the counter holds exactly what the calls were charged');
    const lines = await ledger.find({ org_id: ent.orgId }).lean();
    t.equal(lines.length, ok.length, 'one ledger line per answered call');
    t.equal(lines.reduce((n, l) => n + l.credits, 0), charged);
    t.ok(ok.length >= 5 && ok.length <= 10, `${ok.length} calls fit in the 10 credits left`);
    const e = await entitlements(ent.key);
    t.same(e.body.features.agent_credits_monthly.quota, 1_000, 'the custom cap is what the resolver reports');
  });

  t.test('should never take a custom cap past its limit with 50 concurrent agent steps that use more than they reserved', async (t) => {
    const ent = await setup('enterprise');
    await api.cp.m.Organization.updateOne({ _id: ent.orgId }, { $set: { agent_credits_cap: 500 } });
    await api.cp.m.UsageCounter.create({ org_id: ent.orgId, feature: 'agent_credits_monthly', period_start: new Date(Date.UTC(api.clock.now.getUTCFullYear(), api.clock.now.getUTCMonth(), 1)), used: 470, overage: 0 });
    // An agent step reserves what it sends plus its 4,000-token answer (5 credits here) and then
    // reports between 1,000 and 9,000 tokens: some use less than they reserved, some more.
    const outcomes = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const hold = await holdCredits(api.cp.deps, ent.orgId, { projectId: ent.project.id, feature: 'writing_agent', runId: `run-${i}` }, estimateCredits(2_000, 4_000)).catch((e) => e);
      if (!('settle' in hold)) return { refused: hold.code as string, charged: 0 };
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      return { refused: null, charged: await hold.settle(1_000 + (i % 9) * 1_000) };
    }));
    const c = await counter(ent.orgId);
    t.ok(c!.used <= 500, `the counter stays within the cap (${c!.used})`);
    t.ok(outcomes.filter((o) => o.refused).every((o) => o.refused === 'quota_exceeded'), 'the others are refused with the quota code');
    t.equal(c!.used - 470, outcomes.reduce((n, o) => n + o.charged, 0), 'the counter holds exactly what the steps were charged');
    const lines = await ledger.find({ org_id: ent.orgId }).lean();
    t.same([lines.length, lines.every((l) => l.feature === 'writing_agent')], [outcomes.filter((o) => !o.refused).length, true]);
    t.equal(lines.reduce((n, l) => n + l.credits, 0), c!.used - 470, 'the ledger adds up to the counter');
  });
});

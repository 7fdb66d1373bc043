import t from 'tap';
import { otherTenantRepo } from './fixture-pages.ts';
import { startStandIn } from './llm-stand-in.ts';
import { startSiteFixture } from './site-fixture.ts';

const ask = { messages: [{ role: 'user', content: 'When does the balloon launch?' }] };
const PANEL = { 'x-folio-client': 'site-panel' };

t.test('assistant_messages_daily counts messages a model answered', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const f = await startSiteFixture({ env: { ASSISTANT_LLM_URL: llm.url, ASSISTANT_LLM_MODEL: 'stand-in-1' }, limits: { visitorMessages: 100, readerAnswersPerHour: 100, addressAnswersPerHour: 100 } });
  t.teardown(() => f.close());
  const site = await f.publish('free', {}, otherTenantRepo());
  const key = await f.api.key(site.orgId);
  const counter = async () => (await f.api.cp.m.UsageCounter.findOne({ org_id: site.orgId, feature: 'assistant_messages_daily' }).lean())?.used ?? 0;

  t.test('should answer exactly the free cap of 10 with the model, then 429 for API clients until 00:00 UTC, leaving the counter unchanged', async (t) => {
    f.api.clock.now = new Date('2026-03-10T23:59:30.000Z');
    for (let i = 1; i <= 10; i++) {
      const res = await f.post(site.slug, '/_folio/assistant', ask);
      t.same([res.status, res.events.at(-1)!.data], [200, { mode: 'llm', reason: null, remaining: 10 - i }], `message ${i}`);
    }
    t.equal(await counter(), 10);
    const refused = await f.post(site.slug, '/_folio/assistant', ask);
    t.same([refused.status, refused.headers['retry-after'], refused.headers['content-type'], refused.json], [429, '30', 'application/json; charset=utf-8', {
      error: 'quota_exceeded',
      message: 'Your plan allows 10 assistant messages a day, all used; it resets at 2026-03-11T00:00:00.000Z',
    }]);
    t.equal(await counter(), 10, 'a refused message is not counted');
    const entitlements = await f.api.request('GET', '/me/entitlements', { key });
    t.same(entitlements.body.features.assistant_messages_daily, { type: 'quota', quota: 10, used: 10, remaining: 0 }, 'the resolver agrees');
    f.api.clock.now = new Date('2026-03-10T23:59:59.500Z');
    const last = await f.post(site.slug, '/_folio/assistant', ask);
    t.same([last.status, last.headers['retry-after']], [429, '1']);
  });

  t.test('should show the site\'s readers the best matching pages at the cap, in their words, counting nothing', async (t) => {
    const requests = llm.requests.length;
    const res = await f.post(site.slug, '/_folio/assistant', ask, { headers: PANEL });
    t.equal(res.status, 200);
    t.same(res.events.map((e) => e.event), ['citations', 'results', 'delta', 'delta', 'done']);
    t.same(res.events[1].data.lead, 'The assistant has answered all the questions it can today; here are the best matching pages.');
    t.same(res.events[1].data.results.map((r: any) => [r.title, r.text]), [['Zephyr balloons', 'The Zephyr balloon launches at dawn. Secret marker: OTHER-TENANT-ZEPHYR.']]);
    t.same(res.events.at(-1)!.data, { mode: 'excerpts', reason: 'daily_limit', remaining: 0 });
    t.notMatch(res.text, /quota|assistant_messages_daily|2026-03-11/, 'no quota jargon or reset timestamp');
    t.equal(llm.requests.length, requests, 'the model was not asked');
    t.equal(await counter(), 10);
  });

  t.test('should start a new day at zero', async (t) => {
    f.api.clock.now = new Date('2026-03-11T00:00:00.000Z');
    const next = await f.post(site.slug, '/_folio/assistant', ask);
    t.same([next.status, next.events.at(-1)!.data], [200, { mode: 'llm', reason: null, remaining: 9 }]);
  });

  t.test('should count nothing for answers without a model', async (t) => {
    const plain = await startSiteFixture({ limits: { visitorMessages: 100 } });
    t.teardown(() => plain.close());
    const other = await plain.publish('free', {}, otherTenantRepo());
    plain.api.clock.now = new Date('2026-03-12T10:00:00.000Z');
    for (let i = 0; i < 12; i++) {
      const res = await plain.post(other.slug, '/_folio/assistant', ask);
      t.same([res.status, res.events.at(-1)!.data], [200, { mode: 'excerpts', reason: 'no_model', remaining: 10 }], `question ${i + 1}`);
    }
    t.equal((await plain.api.cp.m.UsageCounter.findOne({ org_id: other.orgId, feature: 'assistant_messages_daily' }).lean())?.used ?? 0, 0);
  });
});

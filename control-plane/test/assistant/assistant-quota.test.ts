import t from 'tap';
import { otherTenantRepo } from './fixture-pages.ts';
import { startSiteFixture } from './site-fixture.ts';

const ask = { messages: [{ role: 'user', content: 'When does the balloon launch?' }] };

t.test('assistant_messages_daily quota', async (t) => {
  const f = await startSiteFixture({ limits: { visitorMessages: 100 } });
  t.teardown(() => f.close());
  const site = await f.publish('free', {}, otherTenantRepo());
  const key = await f.api.key(site.orgId);
  const counter = async () => (await f.api.cp.m.UsageCounter.findOne({ org_id: site.orgId, feature: 'assistant_messages_daily' }).lean())?.used;

  t.test('should answer exactly the free cap of 10, then 429 until 00:00 UTC, leaving the counter unchanged', async (t) => {
    f.api.clock.now = new Date('2026-03-10T23:59:30.000Z');
    for (let i = 1; i <= 10; i++) {
      const res = await f.post(site.slug, '/_folio/assistant', ask);
      t.same([res.status, res.events.at(-1)!.data], [200, { mode: 'excerpts', remaining: 10 - i }], `message ${i}`);
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
    f.api.clock.now = new Date('2026-03-11T00:00:00.000Z');
    const next = await f.post(site.slug, '/_folio/assistant', ask);
    t.same([next.status, next.events.at(-1)!.data], [200, { mode: 'excerpts', remaining: 9 }], 'a new day starts at zero');
  });
});

import t from 'tap';
import { startStandIn } from './llm-stand-in.ts';
import { startSiteFixture } from './site-fixture.ts';

const ask = { messages: [{ role: 'user', content: 'What is the rate limit of the API?' }] };

t.test('model answers per reader and per address', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const f = await startSiteFixture({
    env: { ASSISTANT_LLM_URL: llm.url, TRUST_PROXY: 'true' },
    limits: { visitorMessages: 100, readerAnswersPerHour: 2, addressAnswersPerHour: 3 },
  });
  t.teardown(() => f.close());
  const site = await f.publish('pro');
  const counter = async () => (await f.api.cp.m.UsageCounter.findOne({ org_id: site.orgId, feature: 'assistant_messages_daily' }).lean())?.used ?? 0;
  const from = async (address: string, reader: string) => {
    const res = await f.post(site.slug, '/_folio/assistant', ask, { headers: { 'x-forwarded-for': address, 'x-folio-client': 'site-panel', 'x-folio-reader': reader } });
    return { status: res.status, done: res.events.at(-1)!.data, lead: res.events.find((e) => e.event === 'results')?.data.lead };
  };
  f.api.clock.now = new Date('2026-05-04T10:00:00.000Z');

  t.test('should give one reader 2 model answers an hour, then the best matching pages, counting those not', async (t) => {
    t.same((await from('198.51.100.1', 'reader-aaaa-1')).done, { mode: 'llm', reason: null, remaining: 499 });
    t.same((await from('198.51.100.1', 'reader-aaaa-1')).done, { mode: 'llm', reason: null, remaining: 498 });
    const over = await from('198.51.100.1', 'reader-aaaa-1');
    t.same([over.status, over.done, over.lead], [200, { mode: 'excerpts', reason: 'reader_limit', remaining: 498 },
      'You have asked the assistant a lot of questions this hour; here are the best matching pages.']);
    t.equal(await counter(), 2, 'the answer without the model is not counted');
  });

  t.test('should share an address\'s 3 answers an hour between its readers', async (t) => {
    t.same((await from('198.51.100.1', 'reader-bbbb-2')).done.mode, 'llm');
    t.same((await from('198.51.100.1', 'reader-cccc-3')).done.reason, 'reader_limit', 'the address has had its 3');
    t.same((await from('198.51.100.2', 'reader-cccc-3')).done.mode, 'llm', 'another address is not held back');
  });

  t.test('should ignore a malformed reader id and count the address alone', async (t) => {
    t.same((await from('198.51.100.3', 'x')).done.mode, 'llm');
    t.same((await from('198.51.100.3', 'x')).done.mode, 'llm');
    t.same((await from('198.51.100.3', 'x')).done.mode, 'llm');
    t.same((await from('198.51.100.3', 'y')).done.reason, 'reader_limit');
  });

  t.test('should give answers again an hour later', async (t) => {
    f.api.clock.now = new Date('2026-05-04T11:00:01.000Z');
    t.same((await from('198.51.100.1', 'reader-aaaa-1')).done.mode, 'llm');
  });
});

/**
 * What one assistant request may cost: one question per request (no batches), bounded excerpts
 * in the model's prompt and a bounded answer, however much the model would say.
 */
import t from 'tap';
import { EXCERPT_CHARS } from '../../src/assistant/prompt.ts';
import { startStandIn } from './llm-stand-in.ts';
import { startSiteFixture, type SseEvent } from './site-fixture.ts';

const answerText = (events: SseEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');
const LONG_PARAGRAPH = `Zeppelin mooring ${'ballast trim procedure and winch tension readings '.repeat(250)}end.`;

t.test('assistant amplification bounds', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const f = await startSiteFixture({
    env: { ASSISTANT_LLM_URL: llm.url, ASSISTANT_LLM_MODEL: 'stand-in-1', ASSISTANT_LLM_TIMEOUT_MS: '2000' },
    limits: { visitorMessages: 100 },
  });
  t.teardown(() => f.close());
  const site = await f.publish('pro', { 'docs/mooring.mdx': `---\ntitle: Mooring\n---\n\n## Zeppelin mooring\n\n${LONG_PARAGRAPH}\n` });
  const post = (body: unknown) => f.post(site.slug, '/_folio/assistant', body);

  t.test('should refuse a batch of questions: one request is one question', async (t) => {
    const one = { messages: [{ role: 'user', content: 'How do I moor a zeppelin?' }] };
    const res = await post(Array.from({ length: 50 }, () => one));
    t.same([res.status, res.json], [400, { error: 'invalid_request', message: 'body: Unexpected array; expected object' }]);
    t.equal(llm.requests.length, 0, 'the model was not asked');
  });

  t.test('should hand the model excerpts of at most 4,000 characters', async (t) => {
    llm.mode = 'grounded';
    const res = await post({ messages: [{ role: 'user', content: 'zeppelin mooring ballast trim winch tension' }] });
    t.equal(res.status, 200);
    const prompt: string = llm.requests.at(-1)!.body.messages[1].content;
    const excerpts = [...prompt.matchAll(/<excerpt [^>]*>\n([\s\S]*?)\n<\/excerpt>/g)].map((m) => m[1]);
    t.ok(excerpts.some((e) => e.startsWith('Zeppelin mooring ballast')), 'the long paragraph is among them');
    t.ok(LONG_PARAGRAPH.length > EXCERPT_CHARS);
    for (const e of excerpts) t.ok(e.length <= EXCERPT_CHARS + 2, `an excerpt of ${e.length} characters`);
  });

  t.test('should stop streaming a model that goes on past 8,000 characters', async (t) => {
    llm.mode = 'obedient'; // repeats everything it was sent: far more than 8,000 characters here
    const history = Array.from({ length: 5 }, (_, i) => [
      { role: 'user', content: `Question ${i} ${'q'.repeat(1_900)}` },
      { role: 'assistant', content: `Answer ${i} ${'a'.repeat(7_900)}` },
    ]).flat();
    const res = await post({ messages: [...history, { role: 'user', content: 'And the mooring?' }] });
    t.equal(res.status, 200, res.text.slice(0, 300));
    t.equal(answerText(res.events).length, 8_000, 'cut at maxAnswerChars');
    t.same(res.events.at(-1)!.event, 'done');
  });
});

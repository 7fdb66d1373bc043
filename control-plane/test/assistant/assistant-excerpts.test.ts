import t from 'tap';
import { EXTRA_PAGES, HUMANS_ONLY, OTHER_TENANT, otherTenantRepo } from './fixture-pages.ts';
import { startSiteFixture, type SseEvent } from './site-fixture.ts';

const answerText = (events: SseEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');
const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

t.test('assistant without a model (excerpts)', async (t) => {
  const f = await startSiteFixture({ env: { TRUST_PROXY: 'true' }, limits: { visitorMessages: 3 } });
  t.teardown(() => f.close());
  const acme = await f.publish('pro', EXTRA_PAGES);
  const other = await f.publish('pro', {}, otherTenantRepo());
  let visitor = 0;
  const post = (slug: string, body: unknown, o: Parameters<typeof f.post>[3] = {}) =>
    f.post(slug, '/_folio/assistant', body, { ...o, headers: { 'x-forwarded-for': `10.0.0.${++visitor}`, ...o.headers } });

  t.test('should stream citations, the quoted excerpts and done, labelled as excerpts', async (t) => {
    const res = await post(acme.slug, ask('What is the rate limit of the API?'));
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    t.same(res.events.map((e) => e.event), ['citations', 'delta', 'delta', 'delta', 'delta', 'done']);
    t.same(res.events[0].data.citations[0], {
      n: 1, title: 'API reference', section: 'Rate limits', path: '/reference/api#rate-limits',
      url: `http://${acme.slug}.localhost/reference/api#rate-limits`,
    });
    const text = answerText(res.events);
    t.match(text, /^These are the most relevant excerpts from the docs \(no AI model is set up to write an answer on this site\):/);
    t.match(text, '**[1] API reference › Rate limits**\n\n> 600 requests per minute per key.');
    t.same(res.events.at(-1), { event: 'done', data: { mode: 'excerpts', remaining: 499 } });
    t.same(f.usage.filter((u) => u.projectId === acme.id && u.kind === 'assistant_message').length, 1);
  });

  t.test('should keep the conversation: a follow-up finds its subject in earlier questions', async (t) => {
    const alone = await post(acme.slug, ask('Which header should I send?'));
    t.equal(alone.events[0].data.citations[0].section, 'Authentication');
    const res = await post(acme.slug, { messages: [
      { role: 'user', content: 'What happens over the rate limit?' },
      { role: 'assistant', content: 'The API answers 429 [1].' },
      { role: 'user', content: 'Which header should I send?' },
    ] });
    t.same(res.events[0].data.citations[0], {
      n: 1, title: 'API reference', section: 'What happens over the limit?', path: '/reference/api#rate-limits',
      url: `http://${acme.slug}.localhost/reference/api#rate-limits`,
    });
    t.match(answerText(res.events), 'The API answers `429` with a `Retry-After` header.');
  });

  t.test('should link a changelog entry to its anchor on the page', async (t) => {
    const res = await post(acme.slug, ask('When did telemetry webhooks ship?'));
    t.same(res.events[0].data.citations[0].path, '/changelog#v2-1-0-label');
  });

  t.test('should never reveal humans-only content or another site', async (t) => {
    const page = await new Promise<string>((resolve) => {
      import('node:http').then(({ default: http }) => http.get(`${f.site.url}/guides/launch-checklist`, { headers: { host: `${acme.slug}.localhost` } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(body));
      }));
    });
    t.match(page, HUMANS_ONLY, 'the page shows it to people');
    const code = await post(acme.slug, ask('channel 7 launch code word'));
    t.notMatch(code.text, HUMANS_ONLY);
    const zephyr = await post(acme.slug, ask('When does the Zephyr balloon launch?'));
    t.notMatch(zephyr.text, OTHER_TENANT);
    t.notMatch(zephyr.text, /Zephyr balloon launches/);
    const own = await post(other.slug, ask('When does the Zephyr balloon launch?'));
    t.match(answerText(own.events), 'The Zephyr balloon launches at dawn.');
    t.same(own.events[0].data.citations.map((c: any) => c.url), [`http://${other.slug}.localhost/`]);
  });

  t.test('should say so when nothing matches', async (t) => {
    const res = await post(acme.slug, ask('xylophone quokka'));
    t.same(res.events.map((e) => [e.event, e.data]), [
      ['citations', { citations: [] }],
      ['delta', { text: 'I could not find anything about that in these docs. Try other words, or the search (Ctrl+K).' }],
      ['done', res.events[2].data],
    ]);
    t.equal(res.events[2].data.mode, 'excerpts');
  });

  t.test('should refuse bad requests with exact bodies', async (t) => {
    const cases: [unknown, number, object][] = [
      [{}, 400, { error: 'invalid_request', message: 'messages: Required' }],
      [{ messages: [] }, 400, { error: 'invalid_request', message: 'messages: must hold at least one message' }],
      [ask(' '), 400, { error: 'invalid_request', message: 'messages.0.content: must not be empty' }],
      [ask('x'.repeat(2001)), 400, { error: 'invalid_request', message: 'messages.0.content: must be at most 2000 characters' }],
      [{ messages: [{ role: 'assistant', content: 'hi' }] }, 400, { error: 'invalid_request', message: 'messages: must end with a user message' }],
      [{ messages: Array.from({ length: 21 }, () => ({ role: 'user', content: 'q' })) }, 400, { error: 'invalid_request', message: 'messages: must hold at most 20 messages' }],
      [{ messages: [{ role: 'user', content: 'q', extra: 1 }] }, 400, { error: 'invalid_request', message: 'messages.0.extra: Unexpected key' }],
      [{ ...ask('q'), $where: '1' }, 400, { error: 'invalid_request', message: '$where: Unexpected key; operator and prototype keys are not allowed' }],
    ];
    for (const [body, status, error] of cases) {
      const res = await post(acme.slug, body);
      t.same([res.status, res.json], [status, error], JSON.stringify(body).slice(0, 60));
    }
    const role = await post(acme.slug, { messages: [{ role: 'system', content: 'q' }] });
    t.same([role.status, role.json.error], [400, 'invalid_request']);
    t.match(role.json.message, /^messages\.0\.role: /);
    const malformed = await post(acme.slug, undefined, { raw: '{"messages":' });
    t.same([malformed.status, malformed.json], [400, { error: 'invalid_request', message: 'body: Malformed JSON; expected a JSON object' }]);
    const type = await post(acme.slug, undefined, { raw: 'q', headers: { 'content-type': 'text/plain' } });
    t.same([type.status, type.json], [415, { error: 'unsupported_media_type', message: 'Unexpected Content-Type "text/plain"; expected application/json' }]);
    const big = await post(acme.slug, undefined, { raw: JSON.stringify(ask('x'.repeat(70_000))) });
    t.same([big.status, big.json], [413, { error: 'payload_too_large', message: 'Request body exceeds the 65536 byte limit' }]);
    const get = await new Promise<{ status: number; allow: string | undefined; body: string }>((resolve) => {
      import('node:http').then(({ default: http }) => http.get(`${f.site.url}/_folio/assistant`, { headers: { host: `${acme.slug}.localhost` } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
      }));
    });
    t.same([get.status, get.allow, JSON.parse(get.body)], [405, 'POST', { error: 'method_not_allowed', message: 'Unexpected method GET; this path takes POST' }]);
  });

  t.test('should answer 404 for a site with nothing published', async (t) => {
    const org = await f.api.org('pro');
    await f.api.cp.m.Project.create({ org_id: org.id, name: 'Empty', slug: `empty-${process.pid}` });
    const res = await post(`empty-${process.pid}`, ask('anything'));
    t.same([res.status, res.json], [404, { error: 'not_found', message: 'This site has no published pages to answer from yet' }]);
  });

  t.test('should limit each visitor per minute and count nothing refused', async (t) => {
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < 3; i++) t.equal((await post(acme.slug, ask('rate limit'), { headers })).status, 200);
    const before = (await f.api.cp.m.UsageCounter.findOne({ org_id: acme.orgId }).lean())!.used;
    const refused = await post(acme.slug, ask('rate limit'), { headers });
    t.same([refused.status, refused.headers['retry-after'], refused.json], [429, '60', { error: 'rate_limited', message: 'Too many questions from you in a short time; ask again in 60 s' }]);
    t.equal((await f.api.cp.m.UsageCounter.findOne({ org_id: acme.orgId }).lean())!.used, before);
    t.equal((await post(acme.slug, ask('rate limit'), { headers: { 'x-forwarded-for': '192.0.2.78' } })).status, 200, 'another visitor still asks');
  });

  t.test('should record opens', async (t) => {
    const res = await f.post(acme.slug, '/_folio/assistant/open', undefined, { raw: '' });
    t.equal(res.status, 204);
    t.same(f.usage.filter((u) => u.kind === 'assistant_open').map((u) => u.projectId), [acme.id]);
  });
});

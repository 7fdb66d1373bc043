import t from 'tap';
import { AGENTS_ONLY, EXTRA_PAGES, HUMANS_ONLY, OTHER_TENANT, otherTenantRepo } from './fixture-pages.ts';
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

  t.test('should stream citations, the best matching sections as search results, and done, never as an error', async (t) => {
    const res = await post(acme.slug, ask('What is the rate limit of the API?'));
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    t.same(res.events.map((e) => e.event), ['citations', 'results', 'delta', 'delta', 'delta', 'delta', 'done']);
    const citation = {
      n: 1, title: 'API reference', section: 'Rate limits', path: '/reference/api#rate-limits',
      url: `http://${acme.slug}.localhost/reference/api#rate-limits`,
    };
    t.same(res.events[0].data.citations[0], citation);
    t.same(res.events[1].data.lead, 'Here are the pages that best match your question.');
    t.same(res.events[1].data.results[0], { ...citation, html: '<p>600 requests per minute per key.</p>\n<p><em>Launch pad layout</em></p>', text: '600 requests per minute per key. Launch pad layout' });
    const text = answerText(res.events);
    t.match(text, /^Here are the pages that best match your question\.\n\n1\. \[API reference › Rate limits\]\(http:\/\/[^)]+\/reference\/api#rate-limits\): 600 requests per minute per key\. Launch pad layout\n2\. /);
    t.same(res.events.at(-1), { event: 'done', data: { mode: 'excerpts', reason: 'no_model', remaining: 500 } });
    t.same(f.usage.filter((u) => u.projectId === acme.id && u.kind === 'assistant_message').length, 1);
  });

  t.test('should render a section cleanly: code as code, no quote markers, no image syntax, nothing meant only for AI agents', async (t) => {
    const res = await post(acme.slug, ask('How do I get an API key? Which button in the dashboard settings?'));
    const results = res.events[1].data.results as { title: string; section: string; html: string; text: string }[];
    const keys = results.find((r) => r.section === 'Get an API key')!;
    t.ok(keys, 'the section is among the results');
    t.match(keys.html, '<p>Open <strong>Settings → API keys</strong> in the dashboard and press <strong>New key</strong> to get an API key.</p>');
    t.match(keys.html, /<blockquote>\s*<p><strong>Warning:<\/strong> Treat the API key like a password: anyone holding it can launch rockets\.<\/p>\s*<\/blockquote>/);
    t.match(keys.html, '<pre><code class="language-bash">curl -H &quot;Authorization: Bearer $ACME_KEY&quot; https://api.acme.test/v1/me\n</code></pre>');
    for (const r of results) {
      for (const field of [r.html, r.text]) {
        t.notMatch(field, AGENTS_ONLY, 'no agents-only text');
        t.notMatch(field, '![', 'no image syntax');
        t.notMatch(field, '```', 'no fence markers');
        t.notMatch(field, /<img|<script/, 'no image or script element');
      }
      t.notMatch(r.text, /(^|\s)>/, 'no quote markers in the text');
    }
    t.notMatch(answerText(res.events), AGENTS_ONLY);
    t.match(keys.text, /^Open Settings → API keys in the dashboard and press New key to get an API key\. Warning: Treat the API key like a password/);
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
    t.match(res.events[1].data.results[0].html, '<p>The API answers <code>429</code> with a <code>Retry-After</code> header.</p>');
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
    t.match(own.events[1].data.results[0].text, 'The Zephyr balloon launches at dawn.');
    t.same(own.events[0].data.citations.map((c: any) => c.url), [`http://${other.slug}.localhost/`]);
  });

  t.test('should say so when nothing matches', async (t) => {
    const res = await post(acme.slug, ask('xylophone quokka'));
    t.same(res.events.map((e) => [e.event, e.data]), [
      ['citations', { citations: [] }],
      ['results', { lead: 'Here are the pages that best match your question.', results: [] }],
      ['delta', { text: 'No page of these docs matches that question. Try other words, or the search (Ctrl+K).' }],
      ['done', { mode: 'excerpts', reason: 'no_model', remaining: 500 }],
    ]);
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

  t.test('should limit each visitor per minute and count nothing', async (t) => {
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < 3; i++) t.equal((await post(acme.slug, ask('rate limit'), { headers })).status, 200);
    const refused = await post(acme.slug, ask('rate limit'), { headers });
    t.same([refused.status, refused.headers['retry-after'], refused.json], [429, '60', { error: 'rate_limited', message: 'Too many questions from you in a short time; ask again in 60 s' }]);
    t.equal((await f.api.cp.m.UsageCounter.findOne({ org_id: acme.orgId }).lean())?.used ?? 0, 0, 'answers without a model never count');
    t.equal((await post(acme.slug, ask('rate limit'), { headers: { 'x-forwarded-for': '192.0.2.78' } })).status, 200, 'another visitor still asks');
  });

  t.test('should record opens', async (t) => {
    const res = await f.post(acme.slug, '/_folio/assistant/open', undefined, { raw: '' });
    t.equal(res.status, 204);
    t.same(f.usage.filter((u) => u.kind === 'assistant_open').map((u) => u.projectId), [acme.id]);
  });
});

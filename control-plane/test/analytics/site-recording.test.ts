import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const enc = (s: string) => new TextEncoder().encode(s);

t.test('site server analytics', async (t) => {
  const clock = { now: new Date('2026-03-02T10:00:00Z') };
  const tp = await startTestPlatform({}, { now: () => clock.now });
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Recorded', slug: 'recorded' })).body;
  const other = (await tp.api('POST', '/projects', { name: 'Other', slug: 'recorded-other' })).body;
  for (const [key, text] of [['index.html', '<h1>Home</h1>'], ['guides/install/index.html', '<h1>Install</h1>'], ['guides/install.md', '# Install'],
    ['index.md', '# Home'], ['llms.txt', '# Docs'], ['llms-full.txt', '# All'], ['_folio/app.css', 'a{}'], ['404.html', 'nope']]) {
    await tp.p.store.put(`sites/${project.id}/${key}`, enc(text));
  }
  const events = async (projectId: string) => {
    await tp.p.analytics.flush();
    return (await tp.p.cp.m.AnalyticsEvent.collection.find({ project_id: projectId }, { projection: { _id: 0, ts: 0, hour_key: 0, visitor: 0, source: 0, browser: 0, os: 0, device: 0, bot: 0 } }).toArray());
  };
  const clear = () => tp.p.cp.m.AnalyticsEvent.collection.deleteMany({});

  t.test('should record page views and the three exports of every request served, and nothing else', async (t) => {
    await clear();
    const ua = { 'user-agent': CHROME };
    const answers = [
      await tp.site('recorded', '/?utm_campaign=spring&utm_term=docs', { ...ua, referer: 'https://www.google.com/' }),
      await tp.site('recorded', '/guides/install/', { ...ua, referer: 'http://recorded.localhost/' }),
      await tp.site('recorded', '/guides/install.md', { 'user-agent': GPTBOT }),
      await tp.site('recorded', '/guides/install', { 'user-agent': GPTBOT, accept: 'text/markdown' }),
      await tp.site('recorded', '/llms.txt', { 'user-agent': GPTBOT }),
      await tp.site('recorded', '/llms-full.txt', { 'user-agent': GPTBOT }),
      await tp.site('recorded', '/_folio/app.css', ua),
      await tp.site('recorded', '/missing', ua),
    ];
    t.same(answers.map((a) => a.status), [200, 200, 200, 200, 200, 200, 200, 404]);
    t.same(await events(project.id), [
      { project_id: project.id, kind: 'page_view', channel: 'Organic Search', path: '/', referrer: 'google.com', campaign: 'spring', keyword: 'docs' },
      { project_id: project.id, kind: 'page_view', channel: 'Internal', path: '/guides/install' },
      { project_id: project.id, kind: 'export', channel: 'Direct', path: '/guides/install', ai_family: 'GPTBot', export_kind: 'markdown' },
      { project_id: project.id, kind: 'export', channel: 'Direct', path: '/guides/install', ai_family: 'GPTBot', export_kind: 'markdown' },
      { project_id: project.id, kind: 'export', channel: 'Direct', ai_family: 'GPTBot', export_kind: 'llms_txt' },
      { project_id: project.id, kind: 'export', channel: 'Direct', ai_family: 'GPTBot', export_kind: 'llms_full_txt' },
    ]);
  });

  t.test('should record feedback and search beacons for the host\'s project only', async (t) => {
    await clear();
    const post = (slug: string, path: string, body: string, headers: Record<string, string> = {}) =>
      tp.site(slug, path, { 'user-agent': CHROME, 'content-type': 'application/json', ...headers }, { method: 'POST', body });
    const answers = [
      await post('recorded', '/_folio/feedback', JSON.stringify({ path: '/guides/install', helpful: true })),
      await post('recorded', '/_folio/feedback', JSON.stringify({ path: '/', helpful: false }), { 'content-type': 'text/plain;charset=UTF-8' }),
      await post('recorded', '/_folio/event', JSON.stringify({ type: 'search', query: ' Install ', results: 4, path: '/' })),
      await post('recorded', '/_folio/event', JSON.stringify({ type: 'engagement', path: '/', ms: 5000 })),
    ];
    t.same(answers.map((a) => [a.status, a.body]), [[204, ''], [204, ''], [204, ''], [204, '']]);
    t.same(await events(project.id), [
      { project_id: project.id, kind: 'feedback', channel: 'Direct', path: '/guides/install', vote: 'up' },
      { project_id: project.id, kind: 'feedback', channel: 'Direct', path: '/', vote: 'down' },
      { project_id: project.id, kind: 'search', channel: 'Direct', path: '/', query: 'install', result_count: 4 },
      { project_id: project.id, kind: 'engagement', channel: 'Direct', path: '/', duration_ms: 5000 },
    ]);
    const smuggled = await post('recorded-other', '/_folio/feedback', JSON.stringify({ path: '/', helpful: true, project_id: project.id }));
    t.same([smuggled.status, JSON.parse(smuggled.body)], [400, { error: 'invalid_request', message: 'project_id: Unexpected key' }]);
    t.same(await events(other.id), []);
  });

  t.test('should refuse bad beacons with exact errors', async (t) => {
    const send = async (path: string, body: string, headers: Record<string, string> = {}, method = 'POST') => {
      const res = await tp.site('recorded', path, { 'user-agent': `bad-beacons ${Math.random()}`, 'content-type': 'application/json', ...headers }, { method, body: method === 'GET' ? undefined : body });
      return [res.status, res.body ? JSON.parse(res.body) : undefined];
    };
    t.same(await send('/_folio/feedback', '', {}, 'GET'), [405, { error: 'method_not_allowed', message: 'GET is not allowed here; expected POST' }]);
    t.same(await send('/_folio/feedback', '{'), [400, { error: 'invalid_request', message: 'body: Unexpected text; expected a JSON object' }]);
    t.same(await send('/_folio/feedback', '{"path":"/","helpful":"yes"}'), [400, { error: 'invalid_request', message: 'helpful: must be true or false' }]);
    t.same(await send('/_folio/feedback', '{"path":"x","helpful":true}'), [400, { error: 'invalid_request', message: 'path: must be a path starting with /' }]);
    t.same(await send('/_folio/event', '{"type":"purchase"}'), [400, { error: 'invalid_request', message: 'type: must be one of search, engagement' }]);
    t.same(await send('/_folio/event', '{"type":"search","query":"a","results":-1}'), [400, { error: 'invalid_request', message: 'results: must be an integer from 0 to 10000' }]);
    t.same(await send('/_folio/event', JSON.stringify({ type: 'search', query: 'x'.repeat(3000), results: 1 })), [413, { error: 'payload_too_large', message: 'Request body exceeds the 2048 byte limit' }]);
    t.same(await send('/_folio/event', '{}', { 'content-type': 'application/x-www-form-urlencoded' }), [415, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "application/x-www-form-urlencoded"; expected application/json' }]);
  });

  t.test('should rate-limit each visitor and refill with time', async (t) => {
    const headers = { 'user-agent': 'rate-limited-visitor', 'content-type': 'application/json' };
    const body = JSON.stringify({ path: '/', helpful: true });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await tp.site('recorded', '/_folio/feedback', headers, { method: 'POST', body })).status);
    t.same(statuses, [...Array(20).fill(204), 429]);
    const limited = await tp.site('recorded', '/_folio/feedback', headers, { method: 'POST', body });
    t.same(JSON.parse(limited.body), { error: 'rate_limited', message: 'Too many beacons from this visitor; try again in a minute' });
    const another = await tp.site('recorded', '/_folio/feedback', { ...headers, 'user-agent': 'another-visitor' }, { method: 'POST', body });
    t.equal(another.status, 204, 'another visitor has its own budget');
    clock.now = new Date(clock.now.getTime() + 3_000);
    t.equal((await tp.site('recorded', '/_folio/feedback', headers, { method: 'POST', body })).status, 204, 'one beacon refilled after 3 s');
  });
});

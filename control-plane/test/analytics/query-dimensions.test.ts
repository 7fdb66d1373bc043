import t from 'tap';
import type { EventBody, Visit } from '../../src/analytics/event-input.ts';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { startTestApi } from '../helpers/api.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const host = 'docs.example.com';

/** Alice (Berlin, from Google with campaign tags), Bob (San Francisco on an iPhone, from ChatGPT), and three bots. */
const alice: Visit = { ip: '192.0.2.1', userAgent: CHROME, host, referer: 'https://www.google.com/', search: 'utm_campaign=spring&utm_term=docs', headers: { 'cf-ipcountry': 'DE', 'cf-region-code': 'BE', 'cf-ipcity': 'Berlin' } };
const bob: Visit = { ip: '192.0.2.2', userAgent: IPHONE, host, referer: 'https://chatgpt.com/', headers: { 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'CA', 'cloudfront-viewer-city': 'San Francisco' } };
const gpt: Visit = { ip: '192.0.2.3', userAgent: GPTBOT, host };
const claude: Visit = { ip: '192.0.2.4', userAgent: CLAUDE, host };
const google: Visit = { ip: '192.0.2.5', userAgent: GOOGLEBOT, host, headers: { 'cf-ipcountry': 'US' } };

const EVENTS: [string, Visit, EventBody][] = [
  ['2026-03-02T10:00:00Z', alice, { kind: 'page_view', path: '/' }],
  ['2026-03-02T10:05:00Z', alice, { kind: 'page_view', path: '/guides' }],
  ['2026-03-02T10:06:00Z', alice, { kind: 'search', query: 'install', resultCount: 3 }],
  ['2026-03-02T10:07:00Z', alice, { kind: 'search', query: 'api', resultCount: 5 }],
  ['2026-03-02T10:08:00Z', alice, { kind: 'feedback', vote: 'up', path: '/guides' }],
  ['2026-03-02T10:09:00Z', alice, { kind: 'assistant_open', path: '/guides' }],
  ['2026-03-02T10:10:00Z', alice, { kind: 'assistant_message', path: '/guides' }],
  ['2026-03-02T10:11:00Z', alice, { kind: 'assistant_message', path: '/guides' }],
  ['2026-03-03T09:00:00Z', alice, { kind: 'page_view', path: '/' }],
  ['2026-03-02T23:30:00Z', bob, { kind: 'page_view', path: '/guides' }],
  ['2026-03-02T23:31:00Z', bob, { kind: 'search', query: 'install', resultCount: 0 }],
  ['2026-03-02T23:32:00Z', bob, { kind: 'feedback', vote: 'down', path: '/guides' }],
  ['2026-03-03T01:00:00Z', gpt, { kind: 'page_view', path: '/guides' }],
  ['2026-03-03T01:01:00Z', gpt, { kind: 'export', exportKind: 'markdown', path: '/guides' }],
  ['2026-03-03T01:02:00Z', gpt, { kind: 'export', exportKind: 'llms_txt' }],
  ['2026-03-03T01:03:00Z', gpt, { kind: 'export', exportKind: 'llms_full_txt' }],
  ['2026-03-03T02:00:00Z', claude, { kind: 'export', exportKind: 'markdown', path: '/' }],
  ['2026-03-03T02:01:00Z', claude, { kind: 'export', exportKind: 'markdown', path: '/guides' }],
  ['2026-03-04T12:00:00Z', google, { kind: 'page_view', path: '/' }],
  ['2026-03-05T00:00:00Z', alice, { kind: 'page_view', path: '/late' }],
];
const WINDOW = 'from=2026-03-02T00:00:00Z&to=2026-03-05T00:00:00Z';
const RANGE = { from: '2026-03-02T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z' };

t.test('analytics dimensions, bots and AI insights', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const { orgId, key } = await api.tenant('pro');
  const project = await api.project(key);
  const otherProject = await api.project(key);
  const recorder = new AnalyticsRecorder(api.cp.m);
  t.teardown(() => recorder.close());
  for (const [at, visit, body] of EVENTS) recorder.record({ ...body, projectId: project.id, at: new Date(at), visit });
  recorder.record({ kind: 'page_view', path: '/', projectId: otherProject.id, at: new Date('2026-03-02T10:00:00Z'), visit: alice });
  await recorder.flush();
  const get = async (path: string, asKey = key) => {
    const res = await api.request('GET', `/projects/${project.id}/analytics/${path}`, { key: asKey });
    return res.status === 200 ? res.body : [res.status, res.body];
  };
  const rows = async (dimension: string, extra = '') => (await get(`breakdown?${WINDOW}&dimension=${dimension}${extra}`)).results;

  t.test('should total human traffic, and bot traffic on request, with ai_split always counting bots', async (t) => {
    const aiSplit = [{ family: 'Humans', count: 4 }, { family: 'GPTBot', count: 1 }, { family: 'Other bots', count: 1 }];
    t.same(await get(`overview?${WINDOW}`), {
      range: { ...RANGE, tz: 'UTC', unit: 'day' },
      // Alice counts once per day she came: visitor ids rotate daily.
      totals: { views: 4, searches: 3, feedback_up: 1, feedback_down: 1, unique_visitors: 3 },
      ai_split: aiSplit,
      timeseries: [
        { bucket: '2026-03-02T00:00:00.000Z', views: 3, unique_visitors: 2 },
        { bucket: '2026-03-03T00:00:00.000Z', views: 1, unique_visitors: 1 },
        { bucket: '2026-03-04T00:00:00.000Z', views: 0, unique_visitors: 0 },
      ],
      exclude_bots: true,
    });
    const withBots = await get(`overview?${WINDOW}&bots=included`);
    t.same([withBots.totals, withBots.ai_split, withBots.exclude_bots, withBots.timeseries.map((b: any) => [b.views, b.unique_visitors])], [
      { views: 6, searches: 3, feedback_up: 1, feedback_down: 1, unique_visitors: 5 }, aiSplit, false, [[3, 2], [2, 2], [1, 1]],
    ]);
  });

  t.test('should break down every dimension, highest first', async (t) => {
    t.same(await get(`breakdown?${WINDOW}&dimension=pages`), {
      range: RANGE, dimension: 'pages', exclude_bots: true,
      results: [{ path: '/', views: 2, unique_visitors: 2 }, { path: '/guides', views: 2, unique_visitors: 2 }],
    });
    t.same(await rows('pages', '&bots=included'), [{ path: '/', views: 3, unique_visitors: 3 }, { path: '/guides', views: 3, unique_visitors: 3 }], 'ties by path');
    t.same(await rows('searches'), [{ query: 'install', count: 2, avg_result_count: 1.5 }, { query: 'api', count: 1, avg_result_count: 5 }]);
    t.same(await rows('countries'), [{ country: 'DE', visitors: 2 }, { country: 'US', visitors: 1 }]);
    t.same(await rows('countries', '&bots=included'), [{ country: 'DE', visitors: 2 }, { country: 'US', visitors: 2 }], 'Googlebot came from the US');
    t.same(await rows('regions'), [{ region: 'BE', country: 'DE', visitors: 2 }, { region: 'CA', country: 'US', visitors: 1 }]);
    t.same(await rows('cities'), [{ city: 'Berlin', country: 'DE', visitors: 2 }, { city: 'San Francisco', country: 'US', visitors: 1 }]);
    t.same(await rows('browsers'), [{ name: 'Chrome', visitors: 2 }, { name: 'Mobile Safari', visitors: 1 }]);
    t.same(await rows('os'), [{ name: 'Windows', visitors: 2 }, { name: 'iOS', visitors: 1 }]);
    t.same(await rows('devices'), [{ name: 'Desktop', visitors: 2 }, { name: 'Mobile', visitors: 1 }]);
    t.same(await rows('devices', '&bots=included'), [{ name: 'Bot', visitors: 2 }, { name: 'Desktop', visitors: 2 }, { name: 'Mobile', visitors: 1 }]);
    t.same(await rows('channels'), [{ channel: 'Organic Search', visitors: 2 }, { channel: 'AI', visitors: 1 }]);
    t.same(await rows('referrers'), [{ referrer: 'google.com', visitors: 2 }, { referrer: 'chatgpt.com', visitors: 1 }]);
    t.same(await rows('campaigns'), [{ campaign: 'spring', visitors: 2 }]);
    t.same(await rows('keywords'), [{ keyword: 'docs', visitors: 2 }]);
    t.same(await rows('channels', '&limit=1'), [{ channel: 'Organic Search', visitors: 2 }]);
  });

  t.test('should report AI crawlers, the pages they read, exports and usage', async (t) => {
    t.same(await get(`ai?${WINDOW}`), {
      range: RANGE,
      crawlers: [{ family: 'Claude-User', views: 2 }, { family: 'GPTBot', views: 2 }],
      pages: [{ path: '/guides', views: 3 }, { path: '/', views: 1 }],
      exports: [{ kind: 'llms_txt', count: 1 }, { kind: 'llms_full_txt', count: 1 }, { kind: 'markdown', count: 3 }],
      usage: { llm_exports: 5, ai_referrals: 1, crawler_views: 4, assistant_opens: 1, assistant_messages: 2 },
    });
    const limited = await get(`ai?${WINDOW}&limit=1`);
    t.same([limited.crawlers, limited.pages, limited.usage.crawler_views], [[{ family: 'Claude-User', views: 2 }], [{ path: '/guides', views: 3 }], 4]);
    t.same(await get('ai?from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z'), {
      range: { from: '2026-04-01T00:00:00.000Z', to: '2026-04-02T00:00:00.000Z' }, crawlers: [], pages: [],
      exports: [{ kind: 'llms_txt', count: 0 }, { kind: 'llms_full_txt', count: 0 }, { kind: 'markdown', count: 0 }],
      usage: { llm_exports: 0, ai_referrals: 0, crawler_views: 0, assistant_opens: 0, assistant_messages: 0 },
    });
  });

  t.test('should refuse bad parameters with exact errors', async (t) => {
    const bad = (message: string) => [400, { error: 'invalid_request', message }];
    t.same(await get(`breakdown?${WINDOW}`), bad('dimension: must be one of pages, searches, countries, regions, cities, browsers, os, devices, channels, referrers, campaigns, keywords'));
    t.same(await get(`breakdown?${WINDOW}&dimension=planets`), bad('dimension: must be one of pages, searches, countries, regions, cities, browsers, os, devices, channels, referrers, campaigns, keywords'));
    t.same(await get(`breakdown?${WINDOW}&dimension=pages&limit=0`), bad('limit: must be an integer from 1 to 250'));
    t.same(await get(`breakdown?${WINDOW}&dimension=pages&limit=251`), bad('limit: must be an integer from 1 to 250'));
    t.same(await get(`breakdown?${WINDOW}&dimension=pages&limit=2.5`), bad('limit: must be an integer from 1 to 250'));
    t.same(await get('breakdown?dimension=pages&from=2026-03-05T00:00:00Z&to=2026-03-02T00:00:00Z'), bad('from: must be before to'));
    t.same(await get('breakdown?dimension=pages&to=not-a-date'), bad('to: must be an ISO 8601 date-time such as 2026-03-01T00:00:00Z'));
    t.same(await get('ai?limit=0'), bad('limit: must be an integer from 1 to 250'));
    t.same(await get('ai?from=2026-03-05T00:00:00Z&to=2026-03-02T00:00:00Z'), bad('from: must be before to'));
  });

  t.test('should need analytics:read and answer 404 for another organization\'s project', async (t) => {
    const readOnly = await api.key(orgId, ['projects:read']);
    t.same(await get(`overview?${WINDOW}`, readOnly), [403, { error: 'forbidden', message: 'This API key lacks the scope analytics:read' }]);
    const stranger = await api.tenant();
    t.same(await get(`ai?${WINDOW}`, stranger.key), [404, { error: 'not_found', message: 'project not found' }]);
  });
});

import { gzipSync } from 'node:zlib';
import t from 'tap';
import { CLOUDFRONT_DEFAULT_FIELDS } from '../../src/analytics/cdn-log-formats.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const PERPLEXITY = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)';
const TOKEN = 'test-ingest-token-0123456789';
const enc = (s: string) => new TextEncoder().encode(s);

/** The same traffic, served live and written as log lines: path, query, User-Agent, Referer. */
const TRAFFIC: [string, string, string, string | undefined][] = [
  ['/', 'utm_campaign=launch&utm_term=sdk', CHROME, 'https://www.google.com/'],
  ['/guides/install', '', CHROME, 'https://recorded-live.localhost/'],
  ['/guides/install', '', IPHONE, 'https://chatgpt.com/'],
  ['/guides/install.md', '', GPTBOT, undefined],
  ['/llms.txt', '', GPTBOT, undefined],
  ['/llms-full.txt', '', PERPLEXITY, undefined],
  ['/index.md', '', PERPLEXITY, undefined],
  ['/_folio/app.css', '', CHROME, undefined],
];

t.test('CDN log ingestion', async (t) => {
  const tp = await startTestPlatform({ ANALYTICS_INGEST_TOKEN: TOKEN });
  t.teardown(() => tp.close());
  const projects: Record<string, any> = {};
  for (const slug of ['recorded-live', 'recorded-jsonl', 'recorded-cf']) {
    projects[slug] = (await tp.api('POST', '/projects', { name: slug, slug })).body;
    for (const key of ['index.html', 'guides/install/index.html', 'guides/install.md', 'index.md', 'llms.txt', 'llms-full.txt', '_folio/app.css']) {
      await tp.p.store.put(`sites/${projects[slug].id}/${key}`, enc(key));
    }
  }
  const ingest = async (body: string | Buffer, format?: string, token = TOKEN) => {
    const res = await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/internal/v1/analytics/logs${format ? `?format=${format}` : ''}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}` }, body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return [res.status, await res.json()];
  };
  /** Every figure the API gives for a project, without the window (the same for all three). */
  const figures = async (slug: string) => {
    const id = projects[slug].id;
    const window = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
    const out: Record<string, unknown> = {};
    const { range: _r, timeseries: _ts, ...overview } = (await tp.api('GET', `/projects/${id}/analytics/overview?${window}&bots=included`)).body;
    out.overview = overview;
    for (const dimension of ['pages', 'countries', 'browsers', 'os', 'devices', 'channels', 'referrers', 'campaigns', 'keywords']) {
      out[dimension] = (await tp.api('GET', `/projects/${id}/analytics/breakdown?${window}&bots=included&dimension=${dimension}`)).body.results;
    }
    const { range: _a, ...ai } = (await tp.api('GET', `/projects/${id}/analytics/ai?${window}`)).body;
    out.ai = ai;
    return out;
  };

  t.test('should give the same figures from a JSON lines log and a CloudFront log as from live serving', async (t) => {
    for (const [path, query, ua, referer] of TRAFFIC) {
      const live = await tp.site('recorded-live', query ? `${path}?${query}` : path, { 'user-agent': ua, ...(referer ? { referer } : {}) });
      t.equal(live.status, 200);
    }
    // Accept: text/markdown on a page URL is the same export as its .md URL.
    await tp.site('recorded-live', '/guides/install', { 'user-agent': GPTBOT, accept: 'text/markdown' });
    await tp.p.analytics.flush();
    const now = new Date().toISOString();
    const jsonl = [
      ...TRAFFIC.map(([path, query, ua, referer]) => JSON.stringify({
        timestamp: now, host: 'recorded-jsonl.localhost', path, query, user_agent: ua, ip: '127.0.0.1', status: 200,
        ...(referer ? { referer: referer.replace('recorded-live', 'recorded-jsonl') } : {}),
      })),
      JSON.stringify({ timestamp: now, host: 'recorded-jsonl.localhost', path: '/guides/install', user_agent: GPTBOT, ip: '127.0.0.1', accept: 'text/markdown' }),
    ].join('\n');
    t.same(await ingest(jsonl), [200, { format: 'jsonl', lines: 9, recorded: 8, skipped: 1, invalid: 0, errors: [] }]);

    const [date, time] = [now.slice(0, 10), now.slice(11, 19)];
    const cfLine = (path: string, query: string, ua: string, referer: string | undefined) => {
      const values: Record<string, string> = {
        'date': date, 'time': time, 'c-ip': '127.0.0.1', 'cs-method': 'GET', 'cs(Host)': 'd111111abcdef8.cloudfront.net', 'cs-uri-stem': path,
        'sc-status': '200', 'cs(Referer)': referer ? referer.replace('recorded-live', 'recorded-cf') : '-', 'cs(User-Agent)': encodeURIComponent(ua),
        'cs-uri-query': query || '-', 'x-host-header': 'recorded-cf.localhost',
      };
      return CLOUDFRONT_DEFAULT_FIELDS.map((f) => values[f] ?? '-').join('\t');
    };
    const cloudfront = ['#Version: 1.0', `#Fields: ${CLOUDFRONT_DEFAULT_FIELDS.join(' ')}`,
      ...TRAFFIC.map(([p, q, ua, r]) => cfLine(p, q, ua, r)), cfLine('/guides/install.md', '', GPTBOT, undefined)].join('\n');
    t.same(await ingest(gzipSync(cloudfront), 'cloudfront'), [200, { format: 'cloudfront', lines: 9, recorded: 8, skipped: 1, invalid: 0, errors: [] }], 'gzip as CloudFront delivers it');

    const live = await figures('recorded-live');
    t.same((live.overview as any).totals, { views: 3, searches: 0, feedback_up: 0, feedback_down: 0, unique_visitors: 2 }, 'live traffic was recorded');
    t.same((live.ai as any).usage, { llm_exports: 5, ai_referrals: 1, crawler_views: 3, assistant_opens: 0, assistant_messages: 0 });
    t.same(await figures('recorded-jsonl'), live);
    t.same(await figures('recorded-cf'), live);
  });

  t.test('should skip what is not an event and report unreadable lines', async (t) => {
    const now = new Date().toISOString();
    const lines = [
      JSON.stringify({ timestamp: now, host: 'recorded-jsonl.localhost', path: '/', user_agent: CHROME, method: 'POST' }),
      JSON.stringify({ timestamp: now, host: 'recorded-jsonl.localhost', path: '/nope', user_agent: CHROME, status: 404 }),
      JSON.stringify({ timestamp: now, host: 'unknown-site.localhost', path: '/', user_agent: CHROME }),
      '{not json',
      JSON.stringify({ timestamp: 'yesterday', host: 'recorded-jsonl.localhost', path: '/', user_agent: CHROME }),
      JSON.stringify({ timestamp: now, host: 'recorded-jsonl.localhost', path: 'relative', user_agent: CHROME }),
      '',
    ].join('\n');
    t.same(await ingest(lines, 'jsonl'), [200, {
      format: 'jsonl', lines: 6, recorded: 0, skipped: 3, invalid: 3, errors: [
        { line: 4, message: 'Unexpected text; expected a JSON object' },
        { line: 5, message: 'timestamp: must be an ISO 8601 date-time' },
        { line: 6, message: 'path: must start with /' },
      ],
    }]);
  });

  t.test('should refuse callers without the token and unknown formats', async (t) => {
    t.same(await ingest('', 'jsonl', 'wrong-token-0123456789'), [401, { error: 'unauthorized', message: 'Missing or wrong ingest token' }]);
    t.same(await ingest('', 'apache'), [400, { error: 'invalid_request', message: 'format: must be one of jsonl, cloudfront' }]);
    t.same(await ingest(Buffer.from([0x1f, 0x8b, 0, 1, 2]), 'jsonl'), [400, { error: 'invalid_request', message: 'body: Unexpected bytes; expected a gzip stream or text' }]);
  });
});

t.test('CDN log ingestion without a token', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const res = await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/internal/v1/analytics/logs`, { method: 'POST', body: '' });
  t.same([res.status, await res.json()], [503, { error: 'ingest_disabled', message: 'CDN log ingestion is off: set ANALYTICS_INGEST_TOKEN to turn it on' }]);
});

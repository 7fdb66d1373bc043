import { createHash } from 'node:crypto';
import t from 'tap';
import { BoundedCache } from '../../src/analytics/bounded-cache.ts';
import { classify } from '../../src/analytics/classify.ts';
import type { EventInput } from '../../src/analytics/event-input.ts';
import { geoFromHeaders } from '../../src/analytics/geo.ts';
import { encodeKey, mapPath } from '../../src/analytics/rollup-keys.ts';
import { visitorHash } from '../../src/analytics/visitor-hash.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** A stored event without its `_id` (new for every event). */
const stored = (input: EventInput, at: Date) => {
  const { _id, ...rest } = classify(input, at, 'salt');
  return rest;
};

t.test('analytics caches', async (t) => {
  t.test('should keep at most max entries and make a cleared value again', async (t) => {
    const cache = new BoundedCache<string>(2);
    let made = 0;
    const make = (k: string) => { made++; return k.toUpperCase(); };
    t.same([cache.get('a', make), cache.get('a', make), cache.get('b', make)], ['A', 'A', 'B']);
    t.equal(made, 2, 'a hit makes nothing');
    t.equal(cache.get('c', make), 'C');
    t.equal(cache.size, 1, 'a full cache starts again empty');
    t.equal(cache.get('a', make), 'A');
    t.equal(made, 4);
  });

  t.test('should classify repeated inputs exactly as the first time, and tell apart inputs whose parts run together', async (t) => {
    const at = new Date('2026-03-10T12:34:56Z');
    const visit = { ip: '81.2.69.142', userAgent: CHROME, host: 'docs.example.com', referer: 'https://chatgpt.com/', search: 'utm_campaign=launch&utm_term=sdk' };
    const input: EventInput = { projectId: 'p1', kind: 'page_view', path: '/guides', visit };
    const first = stored(input, at);
    t.same(first, {
      project_id: 'p1', ts: at, kind: 'page_view', source: 'server', visitor: first.visitor, hour_key: `p1|${Date.parse('2026-03-10T12:00:00Z')}`,
      bot: false, browser: 'Chrome', os: 'Windows', device: 'Desktop', channel: 'AI', path: '/guides', referrer: 'chatgpt.com',
      campaign: 'launch', keyword: 'sdk', country: 'GB', region: 'ENG', city: 'Newmarket',
    });
    t.same(stored(input, at), first, 'from the caches');
    // Same characters in a different split between Referer and query string: another origin.
    const split = stored({ ...input, visit: { ...visit, referer: 'https://chatgpt.com/utm_campaign=launch&utm_term=sdk', search: '' } }, at);
    t.same([split.channel, split.referrer, split.campaign, split.keyword], ['AI', 'chatgpt.com', undefined, undefined]);
    const internal = stored({ ...input, visit: { ...visit, referer: 'https://docs.example.com/a', search: undefined } }, at);
    t.same([internal.channel, 'referrer' in internal, 'campaign' in internal], ['Internal', false, false]);
  });

  t.test('should read geo headers the same from the cache, per CDN', async (t) => {
    const cloudfront = { 'cloudfront-viewer-country': 'de', 'cloudfront-viewer-country-region': 'BE', 'cloudfront-viewer-city': 'Berlin' };
    t.same([geoFromHeaders(cloudfront), geoFromHeaders(cloudfront)], Array(2).fill({ country: 'DE', region: 'BE', city: 'Berlin' }));
    t.same(geoFromHeaders({ 'cf-ipcountry': 'XX', 'x-vercel-ip-country': 'US', 'x-vercel-ip-city': 'San%20Francisco' }),
      { country: 'US', region: null, city: 'San Francisco' }, 'a placeholder country (cached as none) falls through to the next CDN');
    t.same(geoFromHeaders({ 'cf-ipcountry': ['FR', 'DE'], 'cf-ipcity': '  ' }), { country: 'FR', region: null, city: null });
  });

  t.test('should hash visitors as sha256 of salt, project, address and User-Agent', async (t) => {
    const digest = createHash('sha256').update(`s\np1\n1.2.3.4\n${CHROME}`).digest('base64url').slice(0, 22);
    t.equal(visitorHash('s', 'p1', '1.2.3.4', CHROME), digest);
  });

  t.test('should give the map paths escaping gives, before and after the cache starts again', async (t) => {
    const values = ['/guides/v1.2', '$ref', '100%', 'plain', ...Array.from({ length: 20_010 }, (_, i) => `/p/${i}.md`)];
    for (const round of [1, 2]) {
      const wrong = values.filter((v) => mapPath('pv', v) !== `pv.${encodeKey(v)}`);
      t.same(wrong, [], `round ${round}`);
    }
    t.same([mapPath('sq', undefined), mapPath('sq', null), mapPath('dims.country', 'DE')], ['sq.n', 'sq.n', 'dims.country.kDE']);
    t.equal(mapPath('pv', '/a.b'), 'pv.k/a%2Eb');
  });
});

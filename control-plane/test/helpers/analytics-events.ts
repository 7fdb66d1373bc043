/** Random analytics events for tests that compare rollups with raw events. */
import type { EventInput, Visit } from '../../src/analytics/event-input.ts';

const HOUR = 3_600_000;
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.5.0',
];
/** Paths with the characters rollup keys must escape. */
const PATHS = ['/', '/guides/install', '/v1.2/api', '/a$b', '/100%25', '/guides/v2.0.1/upgrade', '/z'];
const REFERERS = [undefined, 'https://www.google.com/', 'https://chatgpt.com/', 'https://docs.example.com/', 'https://github.com/acme', 'https://t.co/x'];
const SEARCHES = [undefined, 'utm_source=newsletter&utm_medium=email&utm_campaign=spring', 'utm_campaign=brand&utm_term=docs+sdk', 'gclid=1'];
const PLACES = [{}, { 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-country-region': 'BE', 'cloudfront-viewer-city': 'Berlin' },
  { 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'NY', 'cloudfront-viewer-city': 'New York' },
  { 'cloudfront-viewer-country': 'US' }];

/** A seeded PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random events over March 2026 (both DST changes: New York on the 8th, Berlin on the 29th), from
 * a small pool of people so the same visitor comes back in other hours of a day.
 */
export function randomEvents(seed: number, n: number, projectId: string): EventInput[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const people = Array.from({ length: 60 }, (_, i) => ({ ip: `81.2.${i}.${1 + (i % 7)}`, userAgent: pick(AGENTS), headers: pick(PLACES) }));
  const start = Date.UTC(2026, 2, 1);
  const out: EventInput[] = [];
  for (let i = 0; i < n; i++) {
    const p = pick(people);
    const visit: Visit = { ip: p.ip, userAgent: p.userAgent, host: 'docs.example.com', headers: p.headers, referer: pick(REFERERS), search: pick(SEARCHES) };
    // Bunched into a few hours a day so visitors repeat within and across hours.
    const at = new Date(start + Math.floor(rnd() * 33) * 24 * HOUR + Math.floor(rnd() * 6) * 4 * HOUR + Math.floor(rnd() * 2 * HOUR));
    const r = rnd();
    const base = { projectId, at, visit };
    if (r < 0.55) out.push({ ...base, kind: 'page_view', path: pick(PATHS) });
    else if (r < 0.67) out.push({ ...base, kind: 'export', exportKind: pick(['markdown', 'markdown', 'llms_txt', 'llms_full_txt'] as const), path: rnd() < 0.8 ? pick(PATHS) : undefined });
    else if (r < 0.77) out.push({ ...base, kind: 'search', query: pick(['install', 'api key', 'Install', 'sdk']), resultCount: Math.floor(rnd() * 5) });
    else if (r < 0.85) out.push({ ...base, kind: 'feedback', vote: rnd() < 0.7 ? 'up' : 'down', path: pick(PATHS) });
    else if (r < 0.9) out.push({ ...base, kind: 'engagement', durationMs: 1000, path: pick(PATHS) });
    else if (r < 0.95) out.push({ ...base, kind: 'assistant_open' });
    else out.push({ ...base, kind: 'assistant_message' });
  }
  return out;
}

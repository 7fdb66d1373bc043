/**
 * A realistic synthetic traffic history for one site, as {@link EventInput}s for the analytics
 * recorder (the real ingestion path: classification, hashing, batching). Deterministic for a
 * seed. Humans arrive from search engines, AI chat tools, social sites and campaigns, read a few
 * pages, search, vote and open the assistant; AI crawlers and agents read pages, Markdown exports
 * and llms.txt; classic search bots crawl. Traffic follows the hours of a working day.
 */
import type { EventInput } from '@folio/control-plane/analytics/event-input.ts';
import { mulberry32 } from '../corpus/random.ts';

export interface TrafficOptions {
  projectId: string;
  /** The site's host (internal navigation is referred by it). */
  host: string;
  /** Page paths of the site. */
  pages: string[];
  /** Days of history ending at `end`. */
  days: number;
  /** Events to generate in all (about). */
  events: number;
  end?: Date;
  seed?: number;
}

const HUMAN_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
];
const AI_AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Mozilla/5.0 (compatible; Google-Extended)',
  'CCBot/2.0 (https://commoncrawl.org/faq/)',
  'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
];
const SEARCH_BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
];
const REFERRERS: [string | undefined, number][] = [
  [undefined, 30], ['https://www.google.com/', 30], ['https://chatgpt.com/', 8], ['https://claude.ai/', 4], ['https://www.perplexity.ai/', 3],
  ['https://duckduckgo.com/', 5], ['https://github.com/acme/sdk', 8], ['https://news.ycombinator.com/', 3], ['https://t.co/x', 2], ['https://www.bing.com/', 4],
];
const PLACES = [
  ['US', 'CA', 'San Francisco'], ['US', 'NY', 'New York'], ['DE', 'BE', 'Berlin'], ['GB', 'ENG', 'London'], ['FR', 'IDF', 'Paris'],
  ['IN', 'KA', 'Bengaluru'], ['JP', '13', 'Tokyo'], ['BR', 'SP', 'São Paulo'], ['CA', 'ON', 'Toronto'], ['AU', 'NSW', 'Sydney'],
];
const QUERIES: [string, number][] = [['install', 4], ['api key', 3], ['webhooks', 2], ['rate limit', 1], ['sdk', 6], ['authentication', 3], ['pagination', 0], ['errors', 2]];
const CAMPAIGNS = ['utm_source=newsletter&utm_medium=email&utm_campaign=spring-launch', 'utm_source=google&utm_medium=cpc&utm_campaign=brand&utm_term=docs+sdk'];
/** Hour-of-day weights (UTC): a working day with a long tail. */
const HOURS = [2, 1, 1, 1, 1, 2, 3, 5, 8, 10, 11, 11, 10, 10, 11, 11, 10, 9, 7, 6, 5, 4, 3, 2];

/** The events, day by day in time order (visits interleave). */
export function* syntheticTraffic(o: TrafficOptions): Generator<EventInput> {
  const rnd = mulberry32(o.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const weighted = <T>(xs: readonly [T, number][]): T => {
    let r = rnd() * xs.reduce((s, x) => s + x[1], 0);
    for (const [v, w] of xs) { r -= w; if (r < 0) return v; }
    return xs[xs.length - 1][0];
  };
  const hourWeights = HOURS.map((w, h) => [h, w] as [number, number]);
  // Popular pages first: a Zipf-like pick.
  const page = () => o.pages[Math.min(o.pages.length - 1, Math.floor(o.pages.length * rnd() ** 2.2))];
  const endMs = (o.end ?? new Date()).getTime();
  let produced = 0;
  // Day by day, each day's events in time order, as live traffic and CDN logs arrive: batches
  // then touch the hours of one day, not every hour of the history at once.
  for (let d = 0; d < o.days && produced < o.events; d++) {
    // The d-th 24 hours of the history (the last ends at `end`), hours weighted by UTC hour of day.
    const dayStart = endMs - (o.days - d) * 86_400_000;
    const firstHour = new Date(dayStart).getUTCHours();
    const dayTarget = Math.round((o.events * (d + 1)) / o.days);
    const today: EventInput[] = [];
    let tries = 0;
    while (produced + today.length < dayTarget && tries++ < dayTarget * 4) {
      const at = dayStart + ((weighted(hourWeights) - firstHour + 24) % 24) * 3_600_000 + Math.floor(rnd() * 3_600_000);
      if (at >= endMs) continue;
      const ip = `${11 + Math.floor(rnd() * 200)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${1 + Math.floor(rnd() * 254)}`;
      const [country, region, city] = pick(PLACES);
      const headers = { 'cloudfront-viewer-country': country, 'cloudfront-viewer-country-region': region, 'cloudfront-viewer-city': city };
      const kind = rnd();
      const events: EventInput[] = [];
      let t = at;
      const step = () => (t += 5_000 + Math.floor(rnd() * 120_000));
      if (kind < 0.7) {
        const userAgent = pick(HUMAN_AGENTS);
        const referer = weighted(REFERRERS);
        const search = rnd() < 0.08 ? pick(CAMPAIGNS) : undefined;
        const entry = { ip, userAgent, host: o.host, headers };
        events.push({ projectId: o.projectId, kind: 'page_view', path: page(), at: new Date(t), visit: { ...entry, referer, search } });
        const more = Math.floor(rnd() * 4);
        for (let i = 0; i < more; i++) events.push({ projectId: o.projectId, kind: 'page_view', path: page(), at: new Date(step()), visit: { ...entry, referer: `https://${o.host}/` } });
        if (rnd() < 0.3) { const [query, results] = pick(QUERIES); events.push({ projectId: o.projectId, kind: 'search', query, resultCount: results, path: '/', at: new Date(step()), source: 'beacon', visit: entry }); }
        if (rnd() < 0.1) events.push({ projectId: o.projectId, kind: 'feedback', vote: rnd() < 0.8 ? 'up' : 'down', path: page(), at: new Date(step()), source: 'beacon', visit: entry });
        if (rnd() < 0.4) events.push({ projectId: o.projectId, kind: 'engagement', durationMs: 5_000 + Math.floor(rnd() * 300_000), path: page(), at: new Date(step()), source: 'beacon', visit: entry });
        if (rnd() < 0.05) {
          events.push({ projectId: o.projectId, kind: 'assistant_open', path: page(), at: new Date(step()), source: 'app', visit: entry });
          const messages = 1 + Math.floor(rnd() * 3);
          for (let i = 0; i < messages; i++) events.push({ projectId: o.projectId, kind: 'assistant_message', path: page(), at: new Date(step()), source: 'app', visit: entry });
        }
      } else if (kind < 0.92) {
        const visit = { ip, userAgent: pick(AI_AGENTS), host: o.host, headers };
        const reads = 1 + Math.floor(rnd() * 6);
        for (let i = 0; i < reads; i++) {
          const r = rnd();
          const at2 = new Date(step());
          if (r < 0.45) events.push({ projectId: o.projectId, kind: 'page_view', path: page(), at: at2, visit });
          else if (r < 0.85) events.push({ projectId: o.projectId, kind: 'export', exportKind: 'markdown', path: page(), at: at2, visit });
          else if (r < 0.95) events.push({ projectId: o.projectId, kind: 'export', exportKind: 'llms_txt', at: at2, visit });
          else events.push({ projectId: o.projectId, kind: 'export', exportKind: 'llms_full_txt', at: at2, visit });
        }
      } else {
        const visit = { ip, userAgent: pick(SEARCH_BOTS), host: o.host, headers };
        const reads = 1 + Math.floor(rnd() * 5);
        for (let i = 0; i < reads; i++) events.push({ projectId: o.projectId, kind: 'page_view', path: page(), at: new Date(step()), visit });
      }
      for (const e of events) {
        if (e.at!.getTime() >= endMs || produced + today.length >= dayTarget) continue;
        today.push(e);
      }
    }
    today.sort((a, b) => a.at!.getTime() - b.at!.getTime());
    produced += today.length;
    yield* today;
  }
}

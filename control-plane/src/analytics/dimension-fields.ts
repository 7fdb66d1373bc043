/**
 * What the breakdowns and the overview group by, shared by the raw queries and the rollups
 * (analytics/rollup-writes.ts) so both read the same fields.
 */
import type { Dimension } from './query-params.ts';

/** Visitor families of `ai_split` besides the AI families of analytics/ai-families.ts. */
export const HUMANS = 'Humans';
export const OTHER_BOTS = 'Other bots';

/** Dimensions counted as distinct visitors of page views, with the event fields that form a row (in sort order). */
export const VISITOR_DIMENSIONS: Record<Exclude<Dimension, 'pages' | 'searches'>, Record<string, string>> = {
  countries: { country: 'country' },
  regions: { region: 'region', country: 'country' },
  cities: { city: 'city', country: 'country' },
  browsers: { name: 'browser' },
  os: { name: 'os' },
  devices: { name: 'device' },
  channels: { channel: 'channel' },
  referrers: { referrer: 'referrer' },
  campaigns: { campaign: 'campaign' },
  keywords: { keyword: 'keyword' },
};

/** Analytics endpoints (spec 2.6-2.8): overview, breakdowns, AI and LLM insights. Scope `analytics:read`. */
import { z } from 'zod';
import { aiInsights } from '../analytics/ai-insights.ts';
import { breakdown } from '../analytics/breakdown.ts';
import { MAX_BUCKETS } from '../analytics/buckets.ts';
import { overview } from '../analytics/overview.ts';
import { aiQuery, breakdownQuery, DIMENSIONS, overviewQuery, resolveBuckets, resolveWindow } from '../analytics/query-params.ts';
import { defineRoute } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from './schemas.ts';

const TAGS = ['Analytics'];
const int = z.number().int();
const dateTime = z.iso.datetime();
const range = z.object({ from: dateTime, to: dateTime });

const overviewSchema = z.object({
  range: z.object({ from: dateTime, to: dateTime, tz: z.string(), unit: z.string() }),
  totals: z.object({ views: int, searches: int, feedback_up: int, feedback_down: int, unique_visitors: int }),
  ai_split: z.array(z.object({ family: z.string(), count: int })),
  timeseries: z.array(z.object({ bucket: dateTime, views: int, unique_visitors: int })),
  exclude_bots: z.boolean(),
}).meta({ id: 'AnalyticsOverview' });

const visitors = { visitors: int };
const breakdownRow = z.union([
  z.object({ path: z.string(), views: int, unique_visitors: int }),
  z.object({ query: z.string(), count: int, avg_result_count: z.number() }),
  z.object({ country: z.string(), ...visitors }),
  z.object({ region: z.string(), country: z.string(), ...visitors }),
  z.object({ city: z.string(), country: z.string(), ...visitors }),
  z.object({ name: z.string(), ...visitors }),
  z.object({ channel: z.string(), ...visitors }),
  z.object({ referrer: z.string(), ...visitors }),
  z.object({ campaign: z.string(), ...visitors }),
  z.object({ keyword: z.string(), ...visitors }),
]);
const breakdownSchema = z.object({ range, dimension: z.enum(DIMENSIONS), exclude_bots: z.boolean(), results: z.array(breakdownRow) }).meta({ id: 'AnalyticsBreakdown' });

const aiSchema = z.object({
  range,
  crawlers: z.array(z.object({ family: z.string(), views: int })),
  pages: z.array(z.object({ path: z.string(), views: int })),
  exports: z.array(z.object({ kind: z.string(), count: int })),
  usage: z.object({ llm_exports: int, ai_referrals: int, crawler_views: int, assistant_opens: int, assistant_messages: int }),
}).meta({ id: 'AnalyticsAiInsights' });

const WINDOW_DOC = '`from` is inclusive (default 30 days before `to`), `to` exclusive (default now); `from` must be before `to`. '
  + 'Windows on whole hours are answered from hourly rollups (fast at any traffic, and unaffected by the retention of raw events); '
  + 'other windows, minute buckets and zones with part-hour offsets read raw events.';

export const analyticsRoutes = [
  defineRoute({
    method: 'get', path: '/projects/:id/analytics/overview', operationId: 'getAnalyticsOverview', summary: 'Analytics overview', tags: TAGS,
    description: `Totals, a timeseries and the AI-versus-human split of page views. ${WINDOW_DOC} Buckets start at \`unit\` boundaries in \`tz\` `
      + `(weeks on Monday, days and months at local midnight, across DST changes) and are listed from the one holding \`from\`, empty ones with zeros; `
      + `at most ${MAX_BUCKETS} buckets. \`unique_visitors\` counts daily-rotating visitor ids (no cookies), so a person returning on another day counts again. `
      + '`ai_split` always includes bot traffic: AI families by name, `Other bots` and `Humans`.',
    auth: 'analytics:read', params: projectParams, query: overviewQuery,
    responses: { 200: { description: 'The overview', schema: overviewSchema } },
    async handler({ params, query, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const w = resolveWindow(query, deps.now());
      const buckets = resolveBuckets(w, query.unit, query.tz);
      return { body: await overview(deps.m, { ...w, projectId: project._id, unit: query.unit, tz: query.tz, excludeBots: query.bots === 'excluded', buckets }) };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:id/analytics/breakdown', operationId: 'getAnalyticsBreakdown', summary: 'Analytics breakdown', tags: TAGS,
    description: `Page views grouped by one dimension, highest traffic first (ties by name). ${WINDOW_DOC} `
      + '`pages` rows count views and unique visitors; `searches` rows count searches (queries are lower-cased) with their mean result count; every other dimension counts unique visitors. '
      + 'Visits with no value for the dimension (no referrer, no campaign tag, unknown location) are not listed. Channels: AI, Paid Search, Email, Social, Organic Search, Internal (navigation within the site), Referral, Direct.',
    auth: 'analytics:read', params: projectParams, query: breakdownQuery,
    responses: { 200: { description: 'The breakdown', schema: breakdownSchema } },
    async handler({ params, query, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const w = resolveWindow(query, deps.now());
      return { body: await breakdown(deps.m, { ...w, projectId: project._id, dimension: query.dimension, limit: query.limit, excludeBots: query.bots === 'excluded' }) };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:id/analytics/ai', operationId: 'getAnalyticsAi', summary: 'AI and LLM insights', tags: TAGS,
    description: `Reads by AI crawlers and agents per family and per page (page views and Markdown exports), export fetches, and usage. ${WINDOW_DOC} `
      + '`limit` (1-250, default 20) caps `crawlers` and `pages`. `exports` always lists `llms_txt`, `llms_full_txt` and `markdown`. No `bots` parameter: AI traffic is bot traffic.',
    auth: 'analytics:read', params: projectParams, query: aiQuery,
    responses: { 200: { description: 'The insights', schema: aiSchema } },
    async handler({ params, query, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const w = resolveWindow(query, deps.now());
      return { body: await aiInsights(deps.m, { ...w, projectId: project._id, limit: query.limit }) };
    },
  }),
];

/**
 * The analytics overview (spec 2.6): from the hourly rollups when the request allows it
 * (analytics/rollup-window.ts), else aggregated from raw events in the database in one pass.
 */
import type { Models } from '../db/models/index.ts';
import { START_OF_WEEK } from './buckets.ts';
import { HUMANS, OTHER_BOTS } from './dimension-fields.ts';
import type { OverviewInput } from './query-params.ts';
import { overviewFromRollups, type OverviewParts } from './rollup-overview.ts';
import { rollupsCover, type ReadOptions } from './rollup-window.ts';

export { HUMANS, OTHER_BOTS };

/**
 * `views` are page views (exports are counted by the AI insights); `unique_visitors` are distinct
 * daily visitor ids among them; `ai_split` groups page views by family, bots always included, so
 * with `bots=included` its counts add up to `views`.
 */
export async function overview(m: Models, q: OverviewInput, opts: ReadOptions = {}) {
  if (!opts.raw && rollupsCover(q, q.unit, q.tz)) return shapeOverview(q, await overviewFromRollups(m, q));
  const humans = q.excludeBots ? [{ $match: { bot: false } }] : [];
  const views = { $match: { kind: 'page_view' } };
  const [facets] = await m.AnalyticsEvent.aggregate([
    { $match: { project_id: q.projectId, kind: { $in: ['page_view', 'search', 'feedback'] }, ts: { $gte: q.from, $lt: q.to } } },
    {
      $facet: {
        totals: [...humans, {
          $group: {
            _id: null,
            views: { $sum: { $cond: [{ $eq: ['$kind', 'page_view'] }, 1, 0] } },
            searches: { $sum: { $cond: [{ $eq: ['$kind', 'search'] }, 1, 0] } },
            up: { $sum: { $cond: [{ $and: [{ $eq: ['$kind', 'feedback'] }, { $eq: ['$vote', 'up'] }] }, 1, 0] } },
            down: { $sum: { $cond: [{ $and: [{ $eq: ['$kind', 'feedback'] }, { $eq: ['$vote', 'down'] }] }, 1, 0] } },
          },
        }],
        visitors: [...humans, views, { $group: { _id: '$visitor' } }, { $count: 'n' }],
        timeseries: [...humans, views,
          { $group: { _id: { b: { $dateTrunc: { date: '$ts', unit: q.unit, timezone: q.tz, startOfWeek: START_OF_WEEK } }, v: '$visitor' }, n: { $sum: 1 } } },
          { $group: { _id: '$_id.b', views: { $sum: '$n' }, visitors: { $sum: 1 } } }],
        ai_split: [views,
          { $group: { _id: { $ifNull: ['$ai_family', { $cond: ['$bot', OTHER_BOTS, HUMANS] }] }, count: { $sum: 1 } } }],
      },
    },
  ]);
  return shapeOverview(q, {
    totals: facets.totals[0] ?? { views: 0, searches: 0, up: 0, down: 0 },
    visitors: facets.visitors[0]?.n ?? 0,
    byBucket: new Map(facets.timeseries.map((r: any) => [new Date(r._id).getTime(), r])),
    aiSplit: new Map((facets.ai_split as { _id: string; count: number }[]).map((r) => [r._id, r.count])),
  });
}

/** The response body of an overview from its parts. */
export function shapeOverview(q: OverviewInput, p: OverviewParts) {
  const t = p.totals;
  const byBucket = p.byBucket;
  return {
    range: { from: q.from.toISOString(), to: q.to.toISOString(), tz: q.tz, unit: q.unit },
    totals: { views: t.views, searches: t.searches, feedback_up: t.up, feedback_down: t.down, unique_visitors: p.visitors },
    ai_split: [...p.aiSplit]
      .map(([family, count]) => ({ family, count }))
      .sort((a, b) => b.count - a.count || a.family.localeCompare(b.family)),
    timeseries: q.buckets.map((b) => {
      const hit = byBucket.get(b.getTime());
      return { bucket: b.toISOString(), views: hit?.views ?? 0, unique_visitors: hit?.visitors ?? 0 };
    }),
    exclude_bots: q.excludeBots,
  };
}

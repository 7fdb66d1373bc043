/**
 * Analytics breakdowns (spec 2.7): one dimension, highest traffic first, ties by name. Read from
 * the hourly rollups when the window is whole hours (analytics/rollup-window.ts), else from raw
 * events.
 */
import type { Models } from '../db/models/index.ts';
import { VISITOR_DIMENSIONS } from './dimension-fields.ts';
import type { BreakdownInput } from './query-params.ts';
import { breakdownRowsFromRollups } from './rollup-breakdown.ts';
import { rollupsCover, type ReadOptions } from './rollup-window.ts';

/**
 * Rows of one dimension. Visits without a value for it (no referrer, no campaign tag, unknown
 * country) are left out of that dimension's rows; unknown browsers, systems and devices read
 * `Unknown`. `avg_result_count` is rounded to two decimals.
 */
export async function breakdown(m: Models, q: BreakdownInput, opts: ReadOptions = {}) {
  const results = !opts.raw && rollupsCover(q) ? await breakdownRowsFromRollups(m, q) : await rawRows(m, q);
  return { range: { from: q.from.toISOString(), to: q.to.toISOString() }, dimension: q.dimension, exclude_bots: q.excludeBots, results };
}

async function rawRows(m: Models, q: BreakdownInput): Promise<Record<string, unknown>[]> {
  const match: Record<string, unknown> = { project_id: q.projectId, ts: { $gte: q.from, $lt: q.to }, kind: q.dimension === 'searches' ? 'search' : 'page_view' };
  if (q.excludeBots) match.bot = false;
  let results: Record<string, unknown>[];
  if (q.dimension === 'pages') {
    const rows = await m.AnalyticsEvent.aggregate([
      { $match: { ...match, path: { $ne: null } } },
      { $group: { _id: { p: '$path', v: '$visitor' }, n: { $sum: 1 } } },
      { $group: { _id: '$_id.p', views: { $sum: '$n' }, visitors: { $sum: 1 } } },
      { $sort: { views: -1, visitors: -1, _id: 1 } },
      { $limit: q.limit },
    ]);
    results = rows.map((r) => ({ path: r._id, views: r.views, unique_visitors: r.visitors }));
  } else if (q.dimension === 'searches') {
    const rows = await m.AnalyticsEvent.aggregate([
      { $match: match },
      { $group: { _id: '$query', count: { $sum: 1 }, avg: { $avg: '$result_count' } } },
      { $sort: { count: -1, _id: 1 } },
      { $limit: q.limit },
    ]);
    results = rows.map((r) => ({ query: r._id, count: r.count, avg_result_count: Math.round(r.avg * 100) / 100 }));
  } else {
    const fields = VISITOR_DIMENSIONS[q.dimension];
    const key = Object.fromEntries(Object.entries(fields).map(([out, field]) => [out, `$${field}`]));
    const present = Object.fromEntries(Object.values(fields).map((f) => [f, { $ne: null }]));
    const rows = await m.AnalyticsEvent.aggregate([
      { $match: { ...match, ...present } },
      { $group: { _id: { k: key, v: '$visitor' } } },
      { $group: { _id: '$_id.k', visitors: { $sum: 1 } } },
      { $sort: { visitors: -1, ...Object.fromEntries(Object.keys(fields).map((f) => [`_id.${f}`, 1])) } },
      { $limit: q.limit },
    ]);
    results = rows.map((r) => ({ ...r._id, visitors: r.visitors }));
  }
  return results;
}

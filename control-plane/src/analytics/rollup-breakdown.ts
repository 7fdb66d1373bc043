/**
 * Breakdowns from the hourly rollups, ordered exactly as the raw aggregation orders them
 * (analytics/breakdown.ts): page views and search counts are sums of hourly counts; visitors are
 * distinct (value, visitor id) pairs of the visitor-hour documents, counted in the database.
 */
import type { Models } from '../db/models/index.ts';
import type { BreakdownInput } from './breakdown.ts';
import { VISITOR_DIMENSIONS } from './dimension-fields.ts';
import { FIELD_SEPARATOR } from './rollup-keys.ts';
import { counter, rollupsIn, sumMap } from './rollup-overview.ts';
import { decodeKey } from './rollup-keys.ts';
import { PAGES_FIELD } from './rollup-writes.ts';

/** Ascending order of strings as the database sorts them, null first. */
export const byName = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** Distinct visitors per value of a visitor-hour field, for the values in `only` if given. */
async function visitorsPerValue(m: Models, q: BreakdownInput, field: string, opts: { only?: string[]; limit?: number } = {}) {
  const pipeline: Record<string, unknown>[] = [
    { $match: { project_id: q.projectId, hour: { $gte: q.from, $lt: q.to }, ...(q.excludeBots ? { bot: false } : {}) } },
    { $unwind: `$${field}` },
  ];
  if (opts.only) pipeline.push({ $match: { [field]: { $in: opts.only } } });
  pipeline.push({ $group: { _id: { k: `$${field}`, v: '$visitor' } } }, { $group: { _id: '$_id.k', visitors: { $sum: 1 } } });
  if (opts.limit) pipeline.push({ $sort: { visitors: -1, _id: 1 } }, { $limit: opts.limit });
  return m.AnalyticsVisitorHour.aggregate<{ _id: string; visitors: number }>(pipeline as any);
}

/** The `results` of a breakdown, from rollups. */
export async function breakdownRowsFromRollups(m: Models, q: BreakdownInput): Promise<Record<string, unknown>[]> {
  if (q.dimension === 'pages') {
    const views = new Map<string | null, number>();
    for (const r of await rollupsIn(m, q.projectId, q, { pv: 1 })) if (!(q.excludeBots && r.bot)) sumMap(views, r.pv);
    const ranked = [...views].sort((a, b) => b[1] - a[1]);
    // Visitors only order pages of equal views: count them for the pages that can make the cut.
    const cut = ranked[Math.min(q.limit, ranked.length) - 1]?.[1] ?? 0;
    const candidates = ranked.filter(([, n]) => n >= cut).map(([p]) => p as string);
    const visitors = new Map((await visitorsPerValue(m, q, PAGES_FIELD, { only: candidates })).map((r) => [r._id, r.visitors]));
    return candidates
      .map((path) => ({ path, views: views.get(path)!, unique_visitors: visitors.get(path) ?? 0 }))
      .sort((a, b) => b.views - a.views || b.unique_visitors - a.unique_visitors || byName(a.path, b.path))
      .slice(0, q.limit);
  }
  if (q.dimension === 'searches') {
    const queries = new Map<string | null, { n: number; s: number; c: number }>();
    for (const r of await rollupsIn(m, q.projectId, q, { sq: 1 })) {
      if (q.excludeBots && r.bot) continue;
      for (const [k, v] of Object.entries(r.sq ?? {})) {
        const key = decodeKey(k);
        const acc = queries.get(key) ?? { n: 0, s: 0, c: 0 };
        acc.n += counter(v, 'n');
        acc.s += counter(v, 's');
        acc.c += counter(v, 'c');
        queries.set(key, acc);
      }
    }
    return [...queries]
      .sort((a, b) => b[1].n - a[1].n || byName(a[0], b[0]))
      .slice(0, q.limit)
      // As the raw `$avg`: null without result counts, which rounds to 0.
      .map(([query, v]) => ({ query, count: v.n, avg_result_count: Math.round((v.c === 0 ? 0 : v.s / v.c) * 100) / 100 }));
  }
  const fields = Object.keys(VISITOR_DIMENSIONS[q.dimension]);
  const rows = await visitorsPerValue(m, q, q.dimension, { limit: q.limit });
  return rows.map((r) => {
    const values = r._id.split(FIELD_SEPARATOR);
    return { ...Object.fromEntries(fields.map((f, i) => [f, values[i]])), visitors: r.visitors };
  });
}

/**
 * Breakdowns from the hourly rollups, ordered exactly as the raw aggregation orders them
 * (analytics/breakdown.ts): page views and search counts are sums of hourly counts; visitors are
 * distinct (value, visitor id) pairs (analytics/rollup-uniques.ts).
 */
import type { AnalyticsRollup } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import { VISITOR_DIMENSIONS } from './dimension-fields.ts';
import { FIELD_SEPARATOR } from './rollup-keys.ts';
import { countsIn } from './rollup-days.ts';
import { counter, sumMap } from './rollup-overview.ts';
import { decodeKey } from './rollup-keys.ts';
import type { BreakdownInput } from './query-params.ts';
import { edgeUniques, innerWindow, readEdges, type Edges } from './rollup-edges.ts';
import { clip, dayUniques, daysOf, visitorsPerValue, type DayCounts } from './rollup-uniques.ts';
import { PAGES_FIELD } from './rollup-writes.ts';

/** Ascending order of strings as the database sorts them, null first. */
export const byName = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** Distinct visitors per value of `field` over the window: its whole hours plus what its part-hour edges add. */
async function visitorsWithEdges(m: Models, q: BreakdownInput, field: string, edges: Edges, known?: Map<number, DayCounts>): Promise<Map<string, number>> {
  const inner = { ...q, ...innerWindow(q) };
  const [visitors, extra] = await Promise.all([visitorsPerValue(m, inner, field, known), edgeUniques(m, inner, edges, (v) => v.values(field), [field])]);
  for (const [k, n] of extra) visitors.set(k, (visitors.get(k) ?? 0) + n);
  return visitors;
}

/** The `results` of a breakdown, from rollups (and raw events for the part hours at the window's edges). */
export async function breakdownRowsFromRollups(m: Models, query: BreakdownInput): Promise<Record<string, unknown>[]> {
  const q = { ...query, ...innerWindow(query) };
  if (q.dimension === 'searches') return searchRows(m, query);
  const edges = await readEdges(m, q.projectId, query);
  if (q.dimension === 'pages') {
    // Page views of whole days from the day uniques; the hours of cut days from their rollups.
    const days = daysOf(q);
    // Views per path, and the pages' visitors for visitorsWithEdges below.
    const cached = await dayUniques(m, q, ['pv', `dims.${PAGES_FIELD}`]);
    const views = new Map<string | null, number>();
    for (const d of days) if (d.whole) sumMap(views, cached.get(d.day)?.pv);
    const cutHours = clip(q, days.filter((d) => !d.whole).map((d) => d.day));
    if (cutHours.length > 0) {
      const hours = cutHours.map((r) => ({ hour: { $gte: new Date(r.from), $lt: new Date(r.to) } }));
      const rollups = await m.AnalyticsRollup.find({ project_id: q.projectId, $or: hours }, { pv: 1, bot: 1 }).lean<AnalyticsRollup[]>();
      for (const r of rollups) if (!(q.excludeBots && r.bot)) sumMap(views, r.pv);
    }
    for (const r of edges.rollups) if (!(q.excludeBots && r.bot)) sumMap(views, r.pv);
    const ranked = [...views].sort((a, b) => b[1] - a[1]);
    // Visitors only order pages of equal views: rows past the cut cannot make it.
    const cut = ranked[Math.min(q.limit, ranked.length) - 1]?.[1] ?? 0;
    const candidates = ranked.filter(([, n]) => n >= cut).map(([p]) => p as string);
    const visitors = await visitorsWithEdges(m, query, PAGES_FIELD, edges, cached);
    return candidates
      .map((path) => ({ path, views: views.get(path)!, unique_visitors: visitors.get(path) ?? 0 }))
      .sort((a, b) => b.views - a.views || b.unique_visitors - a.unique_visitors || byName(a.path, b.path))
      .slice(0, q.limit);
  }
  const fields = Object.keys(VISITOR_DIMENSIONS[q.dimension]);
  const rows = [...await visitorsWithEdges(m, query, q.dimension, edges)].sort((a, b) => b[1] - a[1] || byName(a[0], b[0])).slice(0, q.limit);
  return rows.map(([key, visitors]) => {
    const values = key.split(FIELD_SEPARATOR);
    return { ...Object.fromEntries(fields.map((f, i) => [f, values[i]])), visitors };
  });
}

/** Searches per query over the window, from day documents, hourly rollups and the edges' raw events. */
async function searchRows(m: Models, q: BreakdownInput): Promise<Record<string, unknown>[]> {
  const queries = new Map<string | null, { n: number; s: number; c: number }>();
  const { hours, days } = await countsIn(m, q.projectId, q, ['sq']);
  for (const r of [...hours, ...days]) {
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

/**
 * The overview and the AI insights from the rollups: counts are sums over the window's whole
 * days (day documents) and other hours (hourly rollups), read by analytics/rollup-days.ts; unique
 * visitors come from analytics/rollup-uniques.ts.
 */
import type { Models } from '../db/models/index.ts';
import { bucketOf, START_OF_WEEK } from './buckets.ts';
import type { OverviewInput } from './query-params.ts';
import { decodeKey } from './rollup-keys.ts';
import { countsIn, viewsPerHour } from './rollup-days.ts';
import { edgeUniques, innerWindow } from './rollup-edges.ts';
import { clip, DAY, dayUniques, daysOf, visitorMatch } from './rollup-uniques.ts';

const HOUR = 3_600_000;

/** What an overview is made of, however it was computed (analytics/overview.ts shapes the body). */
export interface OverviewParts {
  totals: { views: number; searches: number; up: number; down: number };
  visitors: number;
  /** Bucket start (ms) → page views and distinct visitors. */
  byBucket: Map<number, { views: number; visitors: number }>;
  /** Visitor family → page views (bots always included). */
  aiSplit: Map<string, number>;
}

/** Adds the decoded entries of a rollup map into `into`. */
export function sumMap(into: Map<string | null, number>, map: Record<string, number> | undefined): void {
  if (!map) return;
  for (const [k, n] of Object.entries(map)) {
    const key = decodeKey(k);
    into.set(key, (into.get(key) ?? 0) + n);
  }
}

/** Values of a counters map with missing counters as 0. */
export const counter = (c: Record<string, number> | undefined, name: string): number => c?.[name] ?? 0;

/** The parts of an overview, from rollups (and raw events for the part hours at the edges). */
export async function overviewFromRollups(m: Models, query: OverviewInput): Promise<OverviewParts> {
  // Visitors of the whole hours, then those the edges add; counts add up.
  const q = { ...query, ...innerWindow(query) };
  const days = daysOf(q);
  const [{ hours, days: dayDocs, edges }, cached] = await Promise.all([countsIn(m, q.projectId, query, ['c', 'fam', 'hv']), dayUniques(m, q, ['total', 'hours'])]);
  const byBucket = new Map<number, { views: number; visitors: number }>();
  const slot = (b: number) => { let s = byBucket.get(b); if (!s) { s = { views: 0, visitors: 0 }; byBucket.set(b, s); } return s; };
  const bucket = (ms: number) => bucketOf(new Date(ms), q.unit, q.tz).getTime();
  // Days whose visitors one bucket gets whole come from the cache; hour buckets read each
  // hour's count; the other days (cut by the window or by a bucket) are counted from visitor-hours.
  const split: number[] = [];
  for (const d of days) {
    const day = cached.get(d.day);
    if (q.unit === 'hour') {
      for (let h = 0; h < 24; h++) {
        const at = d.day + h * HOUR;
        if (day && day.hours[h] > 0 && at >= q.from.getTime() && at < q.to.getTime()) slot(bucket(at)).visitors += day.hours[h];
      }
    } else if (d.whole && bucket(d.day) === bucket(d.day + DAY - HOUR)) {
      if (day && day.total > 0) slot(bucket(d.day)).visitors += day.total;
    } else {
      split.push(d.day);
    }
  }
  const cut = days.filter((d) => !d.whole).map((d) => d.day);
  const [cutTotal, splitSeries, fromEdges] = await Promise.all([
    cut.length === 0 ? [] : m.AnalyticsVisitorHour.aggregate([{ $match: visitorMatch(q, clip(q, cut)) }, { $group: { _id: '$visitor' } }, { $count: 'n' }]),
    split.length === 0 ? [] : m.AnalyticsVisitorHour.aggregate([
      { $match: visitorMatch(q, clip(q, split)) },
      { $group: { _id: { b: { $dateTrunc: { date: '$hour', unit: q.unit, timezone: q.tz, startOfWeek: START_OF_WEEK } }, v: '$visitor' } } },
      { $group: { _id: '$_id.b', visitors: { $sum: 1 } } },
    ]),
    edgeUniques(m, q, edges, (v) => ['total', `b${bucket(v.hour)}`]),
  ]);
  for (const r of splitSeries as { _id: Date; visitors: number }[]) slot(new Date(r._id).getTime()).visitors += r.visitors;
  for (const [k, n] of fromEdges) if (k !== 'total') slot(Number(k.slice(1))).visitors += n;
  let visitors = (cutTotal[0]?.n ?? 0) + (fromEdges.get('total') ?? 0);
  for (const d of days) if (d.whole) visitors += cached.get(d.day)?.total ?? 0;

  const totals = { views: 0, searches: 0, up: 0, down: 0 };
  const aiSplit = new Map<string | null, number>();
  for (const r of [...hours, ...dayDocs]) {
    sumMap(aiSplit, r.fam);
    if (q.excludeBots && r.bot) continue;
    totals.views += counter(r.c, 'views');
    totals.searches += counter(r.c, 'searches');
    totals.up += counter(r.c, 'up');
    totals.down += counter(r.c, 'down');
  }
  // Each hour's views go to the bucket holding it: every bucket boundary is on a UTC hour.
  for (const r of hours) {
    const views = counter(r.c, 'views');
    if (views > 0 && !(q.excludeBots && r.bot)) slot(bucket(new Date(r.hour).getTime())).views += views;
  }
  for (const d of dayDocs) {
    if (q.excludeBots && d.bot) continue;
    const start = new Date(d.day).getTime();
    // A day inside one bucket (a UTC day, or a week or month of an hour-aligned zone but for the
    // days it starts on) adds its views at once; others hour by hour.
    if (bucket(start) === bucket(start + DAY - HOUR)) { if (counter(d.c, 'views') > 0) slot(bucket(start)).views += counter(d.c, 'views'); } else for (const [at, views] of viewsPerHour(d)) if (views > 0) slot(bucket(at)).views += views;
  }
  return { totals, visitors, byBucket, aiSplit: aiSplit as Map<string, number> };
}

/**
 * The overview and the AI insights from the hourly rollups: counts are sums of the hours of the
 * window (read in one query, projected to the fields needed), unique visitors are distinct
 * visitor ids of the visitor-hour documents, counted in the database.
 */
import type { AnalyticsRollup } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import { bucketOf, START_OF_WEEK } from './buckets.ts';
import type { OverviewInput, OverviewParts } from './overview.ts';
import { decodeKey } from './rollup-keys.ts';
import type { Window } from './query-params.ts';

type Projection = Partial<Record<keyof AnalyticsRollup, 1>>;

/** The rollups of a project's hours in `w` (both bot classes), with the fields of `projection`. */
export function rollupsIn(m: Models, projectId: string, w: Window, projection: Projection): Promise<AnalyticsRollup[]> {
  return m.AnalyticsRollup.find({ project_id: projectId, hour: { $gte: w.from, $lt: w.to } }, { ...projection, bot: 1 }).lean<AnalyticsRollup[]>();
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

/** The parts of an overview, from rollups. */
export async function overviewFromRollups(m: Models, q: OverviewInput): Promise<OverviewParts> {
  const match = { project_id: q.projectId, hour: { $gte: q.from, $lt: q.to }, ...(q.excludeBots ? { bot: false } : {}) };
  const [rollups, [facets]] = await Promise.all([
    rollupsIn(m, q.projectId, q, { c: 1, fam: 1, hour: 1 }),
    m.AnalyticsVisitorHour.aggregate([
      { $match: match },
      {
        $facet: {
          total: [{ $group: { _id: '$visitor' } }, { $count: 'n' }],
          series: [
            { $group: { _id: { b: { $dateTrunc: { date: '$hour', unit: q.unit, timezone: q.tz, startOfWeek: START_OF_WEEK } }, v: '$visitor' } } },
            { $group: { _id: '$_id.b', visitors: { $sum: 1 } } },
          ],
        },
      },
    ]),
  ]);
  const totals = { views: 0, searches: 0, up: 0, down: 0 };
  const byBucket = new Map<number, { views: number; visitors: number }>();
  for (const r of facets.series as { _id: Date; visitors: number }[]) byBucket.set(new Date(r._id).getTime(), { views: 0, visitors: r.visitors });
  const aiSplit = new Map<string | null, number>();
  for (const r of rollups) {
    sumMap(aiSplit, r.fam);
    if (q.excludeBots && r.bot) continue;
    const views = counter(r.c, 'views');
    totals.views += views;
    totals.searches += counter(r.c, 'searches');
    totals.up += counter(r.c, 'up');
    totals.down += counter(r.c, 'down');
    if (views === 0) continue;
    const b = bucketOf(r.hour, q.unit, q.tz).getTime();
    const slot = byBucket.get(b) ?? { views: 0, visitors: 0 };
    slot.views += views;
    byBucket.set(b, slot);
  }
  return { totals, visitors: facets.total[0]?.n ?? 0, byBucket, aiSplit: aiSplit as Map<string, number> };
}

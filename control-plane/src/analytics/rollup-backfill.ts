/**
 * Backfill of the rollups from raw events: events recorded before the rollups (or the day
 * uniques) existed were never rolled up, so queries answered from rollups would miss them.
 *
 * A UTC day of a project is rebuilt when it holds more raw events than its day-uniques documents
 * counted as they were rolled up (`events`): its rollups, visitor-hours, visitor-days and day
 * uniques are deleted and its raw events rolled up again by the recorder's own code
 * (analytics/rollup-batch.ts). Running it again finds nothing to do, so it is idempotent. A day
 * whose raw events have partly expired (retention) holds fewer raw events than it counted and is
 * left alone: its rollups are the better record. Run it while no recorder writes (at start, before
 * the recorder; or `npm run analytics:backfill` with the control plane stopped): a batch being
 * written holds raw events not yet counted, and a rebuild of that day would lose or repeat them.
 */
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import type { AnalyticsDayUniques, AnalyticsRollup } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import { batchWriterFor } from './batch-writer.ts';
import { DAY_FORMAT, writeRollups } from './rollup-batch.ts';
import { dayKey, hourKey, hourOf } from './rollup-keys.ts';

const DAY = 86_400_000;

/** What a backfill did: days rebuilt from raw events, their events, and older day documents given their hours' sums. */
export interface BackfillResult { days: number; events: number; summed: number }

/** The (project, UTC day)s whose raw events are not all rolled up. */
export async function daysToBackfill(m: Models): Promise<{ projectId: string; day: number }[]> {
  const [raw, counted] = await Promise.all([
    m.AnalyticsEvent.aggregate<{ _id: { p: string; d: Date }; n: number }>([
      { $group: { _id: { p: '$project_id', d: { $dateTrunc: { date: '$ts', unit: 'day' } } }, n: { $sum: 1 } } },
    ]),
    m.AnalyticsDayUniques.find({}, { project_id: 1, day: 1, events: 1 }).lean<AnalyticsDayUniques[]>(),
  ]);
  const rolled = new Map<string, number>();
  for (const d of counted) {
    const key = `${d.project_id}|${new Date(d.day).getTime()}`;
    rolled.set(key, (rolled.get(key) ?? 0) + (d.events ?? 0));
  }
  return raw
    .map((r) => ({ projectId: r._id.p, day: new Date(r._id.d).getTime(), n: r.n }))
    .filter((r) => r.n > (rolled.get(`${r.projectId}|${r.day}`) ?? 0))
    .sort((a, b) => a.projectId.localeCompare(b.projectId) || a.day - b.day)
    .map(({ projectId, day }) => ({ projectId, day }));
}

/** Rebuilds the rollups of every day that misses raw events; `batchSize` events are rolled up at a time. */
export async function backfillRollups(m: Models, opts: { batchSize?: number; onDay?: (projectId: string, day: Date, events: number) => void } = {}): Promise<BackfillResult> {
  const batchSize = opts.batchSize ?? 5_000;
  const c = batchWriterFor(m);
  // Day uniques of the earlier format (one per scope, counted when first read) have no `bot`;
  // reads would add them to the new ones. Their days are rebuilt below when raw events remain.
  await m.AnalyticsDayUniques.deleteMany({ bot: { $exists: false } });
  const result: BackfillResult = { days: 0, events: 0, summed: 0 };
  for (const { projectId, day } of await daysToBackfill(m)) {
    const span = { $gte: new Date(day), $lt: new Date(day + DAY) };
    await Promise.all([
      m.AnalyticsRollup.deleteMany({ project_id: projectId, hour: span }),
      m.AnalyticsVisitorHour.deleteMany({ day_key: dayKey(projectId, day) }),
      m.AnalyticsVisitorDay.deleteMany({ project_id: projectId, day: new Date(day) }),
      m.AnalyticsDayUniques.deleteMany({ project_id: projectId, day: new Date(day) }),
    ]);
    let n = 0;
    const cursor = m.AnalyticsEvent.find({ project_id: projectId, ts: span }).lean<(AnalyticsEvent & { _id: unknown })[]>().cursor({ batchSize });
    let batch: (AnalyticsEvent & { _id: unknown })[] = [];
    const write = async () => {
      await writeRollups(c, batch);
      // Events recorded before `hour_key` existed get it, so reads of part hours find them.
      const keyless = batch.filter((e) => e.hour_key === undefined);
      if (keyless.length > 0) {
        await m.AnalyticsEvent.collection.bulkWrite(keyless.map((e) => ({
          updateOne: { filter: { _id: e._id as never }, update: { $set: { hour_key: hourKey(projectId, hourOf(new Date(e.ts))) } } },
        })), { ordered: false });
      }
      n += batch.length;
      batch = [];
    };
    for await (const e of cursor) {
      batch.push(e as AnalyticsEvent & { _id: unknown });
      if (batch.length >= batchSize) await write();
    }
    if (batch.length > 0) await write();
    result.days++;
    result.events += n;
    opts.onDay?.(projectId, new Date(day), n);
  }
  result.summed = await sumOlderDays(m);
  return result;
}

/** The parts of an hourly rollup a day document sums (analytics/rollup-batch.ts). */
const SUMMED = ['c', 'fam', 'air', 'aip', 'pv', 'sq'] as const;

/** Adds the numbers of `from` into `into`, sub-document by sub-document. */
function addTree(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + v;
    else if (v && typeof v === 'object') addTree((into[k] ??= {}) as Record<string, unknown>, v as Record<string, unknown>);
  }
}

/**
 * Day documents written before they held their hours' counters (no `format`): each gets the sums
 * of its hourly rollups, which stay when raw events expire, so such days answer as before and are
 * then read as one document. Reads use the hourly rollups of such days until then
 * (analytics/rollup-days.ts).
 */
async function sumOlderDays(m: Models): Promise<number> {
  const older = await m.AnalyticsDayUniques.find({ format: { $ne: DAY_FORMAT } }, { project_id: 1, day: 1, bot: 1 }).lean<AnalyticsDayUniques[]>();
  for (const d of older) {
    const day = new Date(d.day).getTime();
    const projection = Object.fromEntries([...SUMMED, 'hour'].map((f) => [f, 1]));
    const hours = await m.AnalyticsRollup.find({ project_id: d.project_id, bot: d.bot, hour: { $gte: new Date(day), $lt: new Date(day + DAY) } }, projection).lean<AnalyticsRollup[]>();
    const sums: Record<string, unknown> = {};
    const hv: Record<string, number> = {};
    for (const h of hours) {
      for (const part of SUMMED) if (h[part]) addTree((sums[part] ??= {}) as Record<string, unknown>, h[part] as Record<string, unknown>);
      const views = h.c?.views ?? 0;
      if (views > 0) hv[`h${(new Date(h.hour).getTime() - day) / 3_600_000}`] = views;
    }
    if (Object.keys(hv).length > 0) sums.hv = hv;
    await m.AnalyticsDayUniques.updateOne({ _id: d._id }, { $set: { ...sums, format: DAY_FORMAT }, $unset: { views: 1 } });
  }
  return older.length;
}

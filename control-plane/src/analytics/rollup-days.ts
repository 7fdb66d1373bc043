/**
 * The counters of a window (page views, searches, feedback, exports, assistant use, and the maps
 * per family, AI family, path and search query) from the fewest rollup documents: a UTC day the
 * window holds whole is read from its day document (its hours' counters summed by the recorder,
 * analytics/rollup-batch.ts), the hours of the days the window cuts from the hourly rollups, and
 * the part hours at the edges from raw events (analytics/rollup-edges.ts). A 30-day window reads
 * about 60 day documents and at most 96 hourly ones instead of 1,440 hourly ones.
 *
 * Counts add up over any set of hours, so the sums are exactly those of the hourly rollups. A day
 * document also holds its page views per UTC hour (`hv`), so buckets of any unit that starts on
 * a UTC hour (an hour, a day in Berlin, a week in New York) get the same views as from the hourly
 * rollups; queries the hourly rollups cannot answer (minute buckets, zones at part-hour offsets)
 * still read raw events (analytics/rollup-window.ts). Days written before the day documents held
 * these counters (no `format`) are read hour by hour until the backfill sums them.
 */
import type { AnalyticsDayUniques, AnalyticsRollup } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import type { Window } from './query-params.ts';
import { DAY_FORMAT } from './rollup-batch.ts';
import { innerWindow, readEdges, type Edges } from './rollup-edges.ts';
import { DAY, daysOf, type Range } from './rollup-uniques.ts';

const HOUR = 3_600_000;

/** The counters and maps a read needs (`hv`: page views per UTC hour, for timeseries). */
export type CountPart = 'c' | 'fam' | 'air' | 'aip' | 'pv' | 'sq' | 'hv';

/** The day document of one whole UTC day and bot class, with the parts read. */
export type DayRollup = Pick<AnalyticsDayUniques, 'day' | 'bot' | 'c' | 'fam' | 'air' | 'aip' | 'pv' | 'sq' | 'hv'>;

/** What a window's counts are read from. */
export interface WindowCounts {
  /** Hourly rollups of the hours not read from a day document, then those of the part hours at the edges. */
  hours: AnalyticsRollup[];
  /** Day documents of the whole UTC days. */
  days: DayRollup[];
  /** The part hours at the edges (their rollups are in `hours`; their visitors count uniques). */
  edges: Edges;
}

/** The hour filter of some ranges, adjacent ones merged. */
function hourRanges(ranges: Range[]): Record<string, unknown> {
  const merged: Range[] = [];
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && last.to >= r.from) last.to = Math.max(last.to, r.to); else merged.push({ ...r });
  }
  const hour = (r: Range) => ({ hour: { $gte: new Date(r.from), $lt: new Date(r.to) } });
  return merged.length === 1 ? hour(merged[0]) : { $or: merged.map(hour) };
}

/** Hourly rollups of a project over some hour ranges. */
function hourlyIn(m: Models, projectId: string, ranges: Range[], parts: readonly CountPart[]): Promise<AnalyticsRollup[]> {
  if (ranges.length === 0) return Promise.resolve([]);
  const projection = Object.fromEntries([...parts.filter((p) => p !== 'hv'), 'hour', 'bot'].map((p) => [p, 1]));
  return m.AnalyticsRollup.find({ project_id: projectId, ...hourRanges(ranges) }, projection).lean<AnalyticsRollup[]>();
}

/**
 * The documents holding the counts of `w` (both bot classes), with `parts`: whole UTC days from
 * their day documents, other whole hours from hourly rollups, part hours from raw events.
 */
export async function countsIn(m: Models, projectId: string, w: Window, parts: readonly CountPart[]): Promise<WindowCounts> {
  const inner = innerWindow(w);
  const days = daysOf(inner);
  const whole = days.filter((d) => d.whole).map((d) => d.day);
  const cut: Range[] = days.filter((d) => !d.whole).map((d) => ({ from: Math.max(d.day, inner.from.getTime()), to: Math.min(d.day + DAY, inner.to.getTime()) }));
  const dayProjection = Object.fromEntries([...parts, 'day', 'bot', 'format'].map((p) => [p, 1]));
  const [dayDocs, cutHours, edges] = await Promise.all([
    whole.length === 0 ? [] : m.AnalyticsDayUniques.find({ project_id: projectId, day: { $gte: new Date(whole[0]), $lt: new Date(whole[whole.length - 1] + DAY) } }, dayProjection).lean<AnalyticsDayUniques[]>(),
    hourlyIn(m, projectId, cut, parts),
    readEdges(m, projectId, w),
  ]);
  // A day is read from its documents only when each of them sums all its hours; a day with no
  // document had no events of that bot class.
  const older = new Set(dayDocs.filter((d) => d.format !== DAY_FORMAT).map((d) => new Date(d.day).getTime()));
  const unsummed = older.size === 0 ? [] : await hourlyIn(m, projectId, [...older].map((d) => ({ from: d, to: d + DAY })), parts);
  return {
    hours: [...cutHours, ...unsummed, ...edges.rollups],
    days: dayDocs.filter((d) => !older.has(new Date(d.day).getTime())),
    edges,
  };
}

/** Page views of a day document per UTC hour: [start of the hour in ms, views]. */
export function viewsPerHour(d: DayRollup): [number, number][] {
  const day = new Date(d.day).getTime();
  return Object.entries(d.hv ?? {}).map(([h, n]) => [day + Number(h.slice(1)) * HOUR, n]);
}

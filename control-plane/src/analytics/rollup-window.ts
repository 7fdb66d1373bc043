/**
 * When the hourly rollups can answer a query exactly. Rollups hold whole UTC hours: the window's
 * whole hours are read from them and the part hours at its edges (a window ending "now") from raw
 * events (analytics/rollup-edges.ts), so the window must hold at least one whole hour, and every
 * bucket boundary must fall on a UTC hour: true for
 * hour, day, week and month buckets in a zone whose offset from UTC is a whole number of hours
 * all over the window (UTC, Europe/Berlin, America/New_York across their DST changes), false for
 * minute buckets and for zones such as Asia/Kolkata (+05:30) or Asia/Kathmandu (+05:45). Other
 * queries read the raw events, whose retention is limited (see analytics/indexes.ts), so such a
 * query over a window older than the retention finds no events while the rollups keep counting
 * (and the part hours at the edges of such a window count nothing).
 */
import { tzOffset } from '@date-fns/tz';
import type { Unit } from './buckets.ts';
import type { Window } from './query-params.ts';

/** Options of the analytics reads. */
export interface ReadOptions {
  /** Read raw events even when rollups could answer (tests compare both paths). */
  raw?: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Whether `tz` is a whole number of hours from UTC at every instant of [from, to). */
function wholeHourOffsets(w: Window, tz: string): boolean {
  if (tz === 'UTC') return true;
  // tzOffset: minutes east of UTC.
  const whole = (ms: number) => tzOffset(tz, new Date(ms)) % 60 === 0;
  // Zones change their offset at most a few times a year and never for less than a day, so a
  // look every 12 hours (and at both ends) sees every offset the window holds.
  for (let at = w.from.getTime(); at < w.to.getTime(); at += DAY / 2) if (!whole(at)) return false;
  return whole(w.to.getTime() - 1);
}

/** Whether rollups answer a query over `w` (bucketed by `unit` in `tz`, for the overview). */
export function rollupsCover(w: Window, unit?: Unit, tz?: string): boolean {
  if (Math.ceil(w.from.getTime() / HOUR) >= Math.floor(w.to.getTime() / HOUR)) return false;
  if (unit === 'minute') return false;
  return tz === undefined || wholeHourOffsets(w, tz);
}

/**
 * Bucket boundaries of an overview timeseries, computed with the same truncation the database
 * applies (`$dateTrunc` with the zone, weeks starting on Monday), so every bucket the database
 * returns has a slot and empty buckets can be filled with zeros. The zones' offsets come from
 * @date-fns/tz, which reads Intl's time zone data as the embedded database does.
 */
import { tzOffset } from '@date-fns/tz';

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month';

/** Most buckets one overview may return (a day of minutes fits; a year of minutes does not). */
export const MAX_BUCKETS = 1500;

/** `$dateTrunc`'s `startOfWeek`: ISO 8601 weeks, as most of the world reads a calendar. */
export const START_OF_WEEK = 'monday';

const HOUR = 3_600_000;
/**
 * A step that lands inside the next bucket whatever DST does (days are 23-25 hours, months 28-31
 * days); truncating there gives the next boundary.
 */
const STEP: Record<Unit, number> = { minute: 60_000, hour: HOUR, day: 36 * HOUR, week: 7 * 24 * HOUR + 12 * HOUR, month: 32 * 24 * HOUR };

const DAY = 24 * HOUR;
const mod = (a: number, b: number): number => ((a % b) + b) % b;

/**
 * The zone's UTC offset at an instant, in milliseconds east of UTC. Wrong for offsets between
 * -1 hour and 0 (tzOffset drops their sign), which only local mean times before 1972 had:
 * windows that old hold no events.
 */
const offsetAt = (tz: string, ms: number): number => (tz === 'UTC' ? 0 : Math.round(tzOffset(tz, new Date(ms)) * 60_000));

/**
 * The instant at which the zone's clock shows `wall` (a wall-clock time written as if it were
 * UTC), by mongod's rules rather than the library's: when the clock shows it twice (a midnight
 * repeated by a change back, as in Asia/Amman or Antarctica/Casey) the earlier instant; when it
 * skips it, as much later as the gap is long.
 */
function instantOf(tz: string, wall: number): number {
  const before = offsetAt(tz, wall - DAY);
  const after = offsetAt(tz, wall + DAY);
  if (before === after) return wall - before;
  const shown = [wall - before, wall - after].filter((at) => offsetAt(tz, at) === wall - at);
  return shown.length > 0 ? Math.min(...shown) : wall - before;
}

/**
 * Where `$dateTrunc` starts counting minutes and hours: 2000-01-01T00:00 on the zone's wall clock.
 * Hours are fixed-length bins from there, not the zone's local hours, which differ in zones whose
 * offset has changed by a part hour since (Australia/Lord_Howe in winter).
 */
const references = new Map<string, number>();
function referenceOf(tz: string): number {
  let at = references.get(tz);
  if (at === undefined) references.set(tz, (at = instantOf(tz, Date.UTC(2000, 0, 1))));
  return at;
}

/**
 * `$dateTrunc` with a bin size of 1 and weeks from Monday: days, weeks and months start at local
 * midnight.
 */
function truncate(ms: number, unit: Unit, tz: string): number {
  if (unit === 'minute' || unit === 'hour') return ms - mod(ms - referenceOf(tz), unit === 'minute' ? 60_000 : HOUR);
  const local = new Date(ms + offsetAt(tz, ms));
  const date = local.getUTCDate();
  const day = unit === 'month' ? 1 : unit === 'week' ? date - mod(local.getUTCDay() - 1, 7) : date;
  return instantOf(tz, Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), day));
}

/** Start of the bucket holding `at`. */
export function bucketOf(at: Date, unit: Unit, tz: string): Date {
  return new Date(truncate(at.getTime(), unit, tz));
}

/** Starts of the buckets that overlap [from, to), at most `max` of them. */
export function bucketStarts(from: Date, to: Date, unit: Unit, tz: string, max: number): Date[] {
  const out: Date[] = [];
  let at = truncate(from.getTime(), unit, tz);
  while (at < to.getTime() && out.length < max) {
    out.push(new Date(at));
    at = unit === 'minute' || unit === 'hour' ? at + STEP[unit] : truncate(at + STEP[unit], unit, tz);
  }
  return out;
}

/**
 * Bucket boundaries of an overview timeseries, computed with the same truncation the database
 * applies (`$dateTrunc` with the zone, weeks starting on Monday), so every bucket the database
 * returns has a slot and empty buckets can be filled with zeros.
 */
import { truncateDate } from '../../embedded-mongo/src/date-operators.ts';

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month';

/** Most buckets one overview may return (a day of minutes fits; a year of minutes does not). */
export const MAX_BUCKETS = 1500;

/** `$dateTrunc`'s `startOfWeek`: ISO 8601 weeks, as most of the world reads a calendar. */
export const START_OF_WEEK = 'monday';
const MONDAY = 1;

const HOUR = 3_600_000;
/**
 * A step that lands inside the next bucket whatever DST does (days are 23-25 hours, months 28-31
 * days); truncating there gives the next boundary.
 */
const STEP: Record<Unit, number> = { minute: 60_000, hour: HOUR, day: 36 * HOUR, week: 7 * 24 * HOUR + 12 * HOUR, month: 32 * 24 * HOUR };

/** Start of the bucket holding `at`. */
export function bucketOf(at: Date, unit: Unit, tz: string): Date {
  return new Date(truncateDate(at.getTime(), unit, 1, tz, MONDAY));
}

/** Starts of the buckets that overlap [from, to), at most `max` of them. */
export function bucketStarts(from: Date, to: Date, unit: Unit, tz: string, max: number): Date[] {
  const out: Date[] = [];
  let at = truncateDate(from.getTime(), unit, 1, tz, MONDAY);
  while (at < to.getTime() && out.length < max) {
    out.push(new Date(at));
    at = unit === 'minute' || unit === 'hour' ? at + STEP[unit] : truncateDate(at + STEP[unit], unit, 1, tz, MONDAY);
  }
  return out;
}

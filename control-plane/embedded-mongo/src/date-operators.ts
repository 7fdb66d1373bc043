import { ObjectId, Timestamp } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Any, AnyObject, Options } from 'mingo/types';
import { MongoCommandError } from './errors.ts';
import { instantOf, localParts, offsetAt, resolveZone } from './time-zone.ts';

const REFERENCE_UTC_MS = Date.UTC(2000, 0, 1);
const FIXED_UNIT_MS: Record<string, number> = { millisecond: 1, second: 1000, minute: 60_000, hour: 3_600_000 };
const CALENDAR_UNITS = new Set(['day', 'week', 'month', 'quarter', 'year']);
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const mod = (a: number, b: number): number => ((a % b) + b) % b;
const dayNumber = (y: number, m: number, d: number): number => Math.floor(Date.UTC(y, m - 1, d) / 86_400_000);

function toMillis(value: unknown, op: string): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (value instanceof ObjectId) return value.getTimestamp().getTime();
  if (value instanceof Timestamp) return value.high * 1000;
  throw new MongoCommandError(5439012, 'Location5439012', `${op} requires 'date' to be a date, but got ${typeof value}`);
}

function weekdayIndex(value: unknown): number {
  const name = String(value).toLowerCase();
  const index = WEEKDAYS.findIndex((d) => d === name || d.slice(0, 3) === name);
  if (index < 0) throw new MongoCommandError(5439016, 'Location5439016', `$dateTrunc parameter 'startOfWeek' value cannot be recognized as a day of a week: ${String(value)}`);
  return index;
}

/**
 * Truncates an instant the way mongod does (date_time_support.cpp): bins are aligned to
 * 2000-01-01T00:00 in the zone (for weeks, the first `startOfWeek` on or after it). Units up to an
 * hour are fixed-length bins counted from that reference instant; day and longer units are counted
 * on the zone's calendar and land on local midnight, so they follow DST in every IANA zone.
 */
export function truncateDate(ms: number, unit: string, binSize: number, timezone: string | undefined, startOfWeek: number): number {
  const zone = resolveZone(timezone);
  const referenceMs = REFERENCE_UTC_MS - offsetAt(zone, REFERENCE_UTC_MS);
  const fixed = FIXED_UNIT_MS[unit];
  if (fixed !== undefined) {
    const bin = fixed * binSize;
    return ms - mod(ms - referenceMs, bin);
  }
  const p = localParts(zone, ms);
  let wall: number;
  if (unit === 'day' || unit === 'week') {
    // 2000-01-01 was a Saturday (6): step forward to the first startOfWeek day.
    const firstDay = unit === 'week' ? mod(startOfWeek - 6, 7) : 0;
    const stride = unit === 'week' ? 7 : 1;
    const units = Math.floor((dayNumber(p.year, p.month, p.day) - dayNumber(2000, 1, 1) - firstDay) / stride);
    const lower = units - mod(units, binSize);
    wall = Date.UTC(2000, 0, 1 + firstDay + lower * stride);
  } else {
    const monthsPerUnit = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
    const units = Math.floor(((p.year - 2000) * 12 + p.month - 1) / monthsPerUnit);
    const lower = (units - mod(units, binSize)) * monthsPerUnit;
    wall = Date.UTC(2000 + Math.floor(lower / 12), mod(lower, 12), 1);
  }
  return instantOf(zone, wall);
}

/** `$dateTrunc` with correct time zones, replacing mingo's (which buckets a day early east of UTC). */
export function $dateTrunc(obj: AnyObject, expr: Any, options: Options): Any {
  const args = evalExpr(obj, expr, options) as AnyObject;
  const ms = toMillis(args.date, '$dateTrunc');
  const { unit, timezone } = args;
  const binSize = args.binSize === undefined ? 1 : args.binSize;
  if (ms === null || unit === null || unit === undefined || binSize === null || timezone === null) return null;
  if (typeof unit !== 'string' || !(unit in FIXED_UNIT_MS || CALENDAR_UNITS.has(unit))) {
    throw new MongoCommandError(5439014, 'Location5439014', `$dateTrunc parameter 'unit' value cannot be recognized as a time unit: ${String(unit)}`);
  }
  const bins = Number(binSize);
  if (!Number.isInteger(bins) || bins <= 0) {
    throw new MongoCommandError(5439017, 'Location5439017', `$dateTrunc requires 'binSize' to be greater than 0, but got value ${String(binSize)}`);
  }
  let startOfWeek = 0;
  if (unit === 'week') {
    if (args.startOfWeek === null) return null;
    if (args.startOfWeek !== undefined) startOfWeek = weekdayIndex(args.startOfWeek);
  }
  return new Date(truncateDate(ms, unit, bins, timezone as string | undefined, startOfWeek));
}

/** `$dateToParts` computed from the zone's wall clock (calendar or ISO 8601 week fields). */
export function $dateToParts(obj: AnyObject, expr: Any, options: Options): Any {
  const args = evalExpr(obj, expr, options) as AnyObject;
  const ms = toMillis(args.date, '$dateToParts');
  if (ms === null || args.timezone === null) return null;
  const p = localParts(resolveZone(args.timezone as string | undefined), ms);
  const time = { hour: p.hour, minute: p.minute, second: p.second, millisecond: p.millisecond };
  if (!args.iso8601) return { year: p.year, month: p.month, day: p.day, ...time };
  const isoDayOfWeek = p.weekday === 0 ? 7 : p.weekday;
  // The ISO week belongs to the year of its Thursday.
  const thursday = new Date(Date.UTC(p.year, p.month - 1, p.day + 4 - isoDayOfWeek));
  const isoWeekYear = thursday.getUTCFullYear();
  const isoWeek = Math.floor((dayNumber(isoWeekYear, thursday.getUTCMonth() + 1, thursday.getUTCDate()) - dayNumber(isoWeekYear, 1, 1)) / 7) + 1;
  return { isoWeekYear, isoWeek, isoDayOfWeek, ...time };
}

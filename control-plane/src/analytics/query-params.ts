/**
 * Query parameters of the analytics endpoints (spec section 4) and the resolved window. Zod
 * checks each field; the rules that tie fields together (`from` before `to`, the bucket cap)
 * are checked by {@link resolveWindow} with the same error shape.
 */
import { z } from 'zod';
import { invalid } from '../errors.ts';
import { limitQuery } from '../http/list-limit.ts';
import { bucketStarts, MAX_BUCKETS, type Unit } from './buckets.ts';

export const UNITS = ['minute', 'hour', 'day', 'week', 'month'] as const;
export const DIMENSIONS = ['pages', 'searches', 'countries', 'regions', 'cities', 'browsers', 'os', 'devices', 'channels', 'referrers', 'campaigns', 'keywords'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

const DATE_RULE = 'must be an ISO 8601 date-time such as 2026-03-01T00:00:00Z';
const dateTime = z.iso.datetime({ offset: true, error: DATE_RULE }).transform((s) => new Date(s));
const TZ_RULE = 'must be an IANA time zone such as UTC or Europe/Berlin';

/** Whether `tz` names an IANA zone (offsets like +02:00 are not zones: they ignore DST). */
export function isIanaZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true; } catch { return false; }
}

const range = {
  from: dateTime.optional().describe('Start, inclusive (ISO 8601 date-time); default 30 days before `to`'),
  to: dateTime.optional().describe('End, exclusive (ISO 8601 date-time); default now'),
};
const bots = z.enum(['included', 'excluded'], { error: 'must be one of included, excluded' }).default('excluded')
  .describe('Whether bot traffic (crawlers, AI agents, tools) counts; default excluded');

export const overviewQuery = z.object({
  ...range,
  unit: z.enum(UNITS, { error: `must be one of ${UNITS.join(', ')}` }).default('day').describe('Bucket length; weeks start on Monday'),
  tz: z.string().refine(isIanaZone, { error: TZ_RULE }).default('UTC').describe('IANA time zone of bucket boundaries, default UTC'),
  bots,
});
export const breakdownQuery = z.object({
  dimension: z.enum(DIMENSIONS, { error: `must be one of ${DIMENSIONS.join(', ')}` }).describe('What to group by'),
  ...range,
  limit: limitQuery(20, 250),
  bots,
});
export const aiQuery = z.object({ ...range, limit: limitQuery(20, 250) });

/** The window a query covers. */
export interface Window { from: Date; to: Date }

/** What an overview reads: the window, its buckets (from {@link resolveBuckets}) and whether bots count. */
export interface OverviewInput extends Window { projectId: string; unit: Unit; tz: string; excludeBots: boolean; buckets: Date[] }

/** What a breakdown reads: one dimension over the window, at most `limit` rows. */
export interface BreakdownInput extends Window { projectId: string; dimension: Dimension; limit: number; excludeBots: boolean }

const DAY_MS = 86_400_000;

/** Applies the defaults (to = now, from = 30 days before to) and checks from < to. */
export function resolveWindow(q: { from?: Date; to?: Date }, now: Date): Window {
  const to = q.to ?? now;
  const from = q.from ?? new Date(to.getTime() - 30 * DAY_MS);
  if (from.getTime() >= to.getTime()) throw invalid('from', 'must be before to');
  return { from, to };
}

/** The bucket starts of an overview, or 400 when there would be more than {@link MAX_BUCKETS}. */
export function resolveBuckets(w: Window, unit: Unit, tz: string): Date[] {
  const starts = bucketStarts(w.from, w.to, unit, tz, MAX_BUCKETS + 1);
  if (starts.length > MAX_BUCKETS) {
    throw invalid('unit', `Unexpected more than ${MAX_BUCKETS} ${unit} buckets between from and to; expected at most ${MAX_BUCKETS}: choose a longer unit or a shorter range`);
  }
  return starts;
}

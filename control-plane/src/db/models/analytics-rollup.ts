import { Schema } from 'mongoose';

/**
 * Counts of one project's events in one UTC hour, for either bot or non-bot traffic, kept up to
 * date by the analytics recorder as it writes each batch (analytics/rollup-writes.ts). Maps are
 * keyed by an escaped value (analytics/rollup-keys.ts) since paths hold dots. Rollups are never
 * expired: they are small (one document per hour and bot class) and keep answers unchanged when
 * the retention of raw events removes the events they were built from.
 */
export interface AnalyticsRollup {
  _id: string;
  project_id: string;
  hour: Date;
  bot: boolean;
  /** Plain counters: views, searches, up, down, opens, messages, referrals (page views from AI chat tools) and one per export kind. */
  c: Record<string, number>;
  /** Page views by visitor family (an AI family, Humans or Other bots): the overview's `ai_split`. */
  fam?: Record<string, number>;
  /** Reads by AI families (page views and Markdown exports) per family. */
  air?: Record<string, number>;
  /** Reads by AI families per page path. */
  aip?: Record<string, number>;
  /** Page views per path. */
  pv?: Record<string, number>;
  /** Searches per query: count, sum of result counts and how many carried a result count. */
  sq?: Record<string, { n: number; s: number; c: number }>;
}

/**
 * The distinct values one visitor's page views had in one UTC hour, one array per breakdown
 * dimension: what unique-visitor counts are computed from. Visitor ids rotate every UTC day, so
 * uniques over any set of hours are distinct visitor ids over these documents, never sums.
 */
export interface AnalyticsVisitorHour {
  _id: string;
  project_id: string;
  hour: Date;
  bot: boolean;
  visitor: string;
  /** `<project id>|<start of the UTC day in ms>`: the equality key a day's reads look up. */
  day_key: string;
  [dimension: string]: unknown;
}

export const analyticsRollupSchema = new Schema({ _id: String, project_id: String, hour: Date, bot: Boolean }, { versionKey: false, strict: false, autoCreate: true });
analyticsRollupSchema.index({ project_id: 1, hour: 1 });

export const analyticsVisitorHourSchema = new Schema({ _id: String, project_id: String, hour: Date, bot: Boolean, visitor: String, day_key: String }, { versionKey: false, strict: false, autoCreate: true });
// Reads select whole UTC days by equality (the embedded database looks up equality on an
// index's leading field; a range on `hour` would test every visitor-hour of the project).
analyticsVisitorHourSchema.index({ day_key: 1, hour: 1 });

/**
 * The distinct values one visitor's page views had in one UTC day (one array per breakdown
 * dimension, as in the visitor-hours). Written by the recorder only to learn which (visitor,
 * value) pairs a batch adds to a day (analytics/rollup-batch.ts); never read by queries.
 */
export interface AnalyticsVisitorDay {
  _id: string;
  project_id: string;
  day: Date;
  bot: boolean;
  visitor: string;
  [dimension: string]: unknown;
}

export const analyticsVisitorDaySchema = new Schema({ _id: String, project_id: String, day: Date, bot: Boolean, visitor: String }, { versionKey: false, strict: false, autoCreate: true });
analyticsVisitorDaySchema.index({ project_id: 1, day: 1 });

/**
 * Distinct visitors of one project's UTC day for bot or non-bot traffic, and the day rollup (its
 * hours' counters summed, so whole days are read as one document instead of 24), kept up to date by the
 * recorder with `$inc` as batches add new visitors and new (visitor, value) pairs
 * (analytics/rollup-batch.ts). A visitor id hashes the User-Agent, which alone decides
 * whether a visit is a bot, so the two classes never share a visitor: all traffic's uniques are
 * the sum of both documents. Visitor ids rotate every UTC day, so counts add up across days.
 */
export interface AnalyticsDayUniques {
  _id: string;
  project_id: string;
  day: Date;
  bot: boolean;
  /** Events of the day (every kind), as rolled up: the backfill compares it with the raw events. */
  events?: number;
  /** 2 when the document holds its hours' counters summed (`c`, `fam`, `air`, `aip`, `sq`, `hv`); absent in days written before. */
  format?: number;
  /** Page views of the day, in days written before `format` 2 (which count them in `c.views`). */
  views?: number;
  /** The day rollup: the hourly rollups' counters and maps (see {@link AnalyticsRollup}) summed over the day's hours. */
  c?: Record<string, number>;
  fam?: Record<string, number>;
  air?: Record<string, number>;
  aip?: Record<string, number>;
  sq?: Record<string, { n: number; s: number; c: number }>;
  /** Page views per UTC hour of the day (`h0` to `h23`). */
  hv?: Record<string, number>;
  /** Distinct visitors of the day. */
  total?: number;
  /** Distinct visitors per UTC hour of the day (`h0` to `h23`: numeric field names would read as array positions). */
  hours?: Record<string, number>;
  /** Distinct visitors per dimension (visitor-hour field) and escaped value. */
  dims?: Record<string, Record<string, number>>;
  /** Page views per escaped path. */
  pv?: Record<string, number>;
}

export const analyticsDayUniquesSchema = new Schema({ _id: String, project_id: String, day: Date, bot: Boolean }, { versionKey: false, strict: false, autoCreate: true });
analyticsDayUniquesSchema.index({ project_id: 1, day: 1 });

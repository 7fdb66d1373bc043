/**
 * Writes what one batch of classified events adds to the rollups: hourly rollups, visitor-hours,
 * and each UTC day's document (its unique visitors and its hours' counters summed), kept current
 * at ingestion so no read ever recounts a day or sums its hours.
 *
 * A day's uniques are counters (`$inc`) raised only by what is new to the day, and the database
 * says what is new: visitor-hours and visitor-days are inserted whole (cheaper than upserts, which
 * cost the embedded database an update each), and the unique `_id` refuses those that exist, so
 * every inserted one is a visitor new to the hour or the day, with every value of the batch new.
 * A visitor-day that already existed is updated with `findOneAndUpdate`, whose document from
 * before the update tells exactly which values the batch added. Both are atomic per document, so
 * recorders in several processes never count a visitor or a (visitor, value) pair twice; such
 * visitor-days are few (a visitor whose day spans batches), so the round trips stay few.
 *
 * Choice: an exact count kept at ingestion, over the alternatives: recounting a day when first read
 * (what made a first 30-day read take seconds), or a sketch such as HyperLogLog (small and fast,
 * but not the exact figures the raw path gives, and the tests compare them).
 */
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import type { BatchWriter } from './batch-writer.ts';
import { mapPath } from './rollup-keys.ts';
import { addToSetOf, dayOfHour, putArrays, putValue, rollupDeltas, rollupUpserts, visitorHourDoc, type HourDelta, type VisitorDelta } from './rollup-writes.ts';

const HOUR = 3_600_000;

/**
 * `format` of day documents that hold their hours' counters summed (written on insert). Days
 * first written before that (no `format`) are read hour by hour until the backfill sums them
 * (analytics/rollup-backfill.ts): `$inc` on such a day would hold only part of its hours.
 */
export const DAY_FORMAT = 2;

/** `_id` of a project's day uniques for one bot class. */
export const dayUniquesId = (projectId: string, dayMs: number, bot: boolean): string => `${projectId}|${dayMs}|${bot ? 1 : 0}`;

interface VisitorDayDelta { id: string; day: DayCounters; visitor: string; sets: Map<string, string[]> }

/** What a batch adds to one day document: `$inc` paths and amounts. */
interface DayCounters { id: string; projectId: string; day: number; bot: boolean; inc: Record<string, number> }

/** The `$inc` paths of a UTC hour of the day: `<map>.h0` to `<map>.h23`, made once. */
const hourPaths = (map: string): string[] => Array.from({ length: 24 }, (_, h) => `${map}.h${h}`);
const VISITOR_HOUR_PATHS = hourPaths('hours');
const VIEW_HOUR_PATHS = hourPaths('hv');

/** `dims.<field>` of each field, made once per field. */
const dimsMaps = new Map<string, string>();
const dimsMap = (field: string): string => {
  let map = dimsMaps.get(field);
  if (map === undefined) { map = `dims.${field}`; dimsMaps.set(field, map); }
  return map;
};

const add = (d: DayCounters, path: string, n = 1) => { d.inc[path] = (d.inc[path] ?? 0) + n; };

/** The day documents a batch adds to, each found once per (project, day, bot class). */
class DayDeltas {
  readonly days = new Map<string, DayCounters>();
  private readonly last: (DayCounters | undefined)[] = [undefined, undefined];

  /** The counters of the day holding the instant or hour `ms`. */
  of(projectId: string, ms: number, bot: boolean): DayCounters {
    const day = dayOfHour(ms);
    const hit = this.last[bot ? 1 : 0];
    if (hit && hit.day === day && hit.projectId === projectId) return hit;
    const id = dayUniquesId(projectId, day, bot);
    let d = this.days.get(id);
    if (!d) { d = { id, projectId, day, bot, inc: {} }; this.days.set(id, d); }
    this.last[bot ? 1 : 0] = d;
    return d;
  }
}

/** Writes the rollups of `events` (already inserted as raw events). */
export async function writeRollups(c: BatchWriter, events: AnalyticsEvent[]): Promise<void> {
  const deltas = rollupDeltas(events);
  const days = new DayDeltas();
  addDayCounters(deltas.hours, days);
  // Events per day and bot class: how the backfill tells days the rollups miss (analytics/rollup-backfill.ts).
  for (const e of events) add(days.of(e.project_id, e.ts.getTime(), e.bot), 'events');
  // Visitor-hours first, then visitor-days, then the counters: a crash in between loses counts
  // (the backfill restores them from raw events) but never counts a visitor not written.
  // Inserted whole when new (cheaper than an upsert); an existing one (a visitor whose hour spans
  // batches) gets the batch's values added.
  if (deltas.visitors.length > 0) {
    const existing = await c.insertNew('visitorHours', deltas.visitors.map(visitorHourDoc));
    deltas.visitors.forEach((v, i) => { if (!existing.has(i)) add(days.of(v.projectId, v.hour, v.bot), VISITOR_HOUR_PATHS[(v.hour - dayOfHour(v.hour)) / HOUR]); });
    const grow = deltas.visitors.filter((v, i) => existing.has(i) && v.sets.size > 0);
    if (grow.length > 0) await c.update('visitorHours', grow.map((v) => ({ filter: { _id: v.id }, update: { $addToSet: addToSetOf(v.sets) } })));
  }
  await countNewVisitorDays(c, visitorDays(deltas.visitors, days));
  if (days.days.size > 0) {
    await c.update('days', [...days.days.values()].map((d) => ({
      filter: { _id: d.id }, update: { $inc: d.inc, $setOnInsert: { project_id: d.projectId, day: new Date(d.day), bot: d.bot, format: DAY_FORMAT } }, upsert: true,
    })));
  }
  if (deltas.hours.length > 0) await c.update('rollups', rollupUpserts(deltas.hours));
}

/**
 * What each day gains from the hourly deltas: every counter and map of its hours summed (the day
 * rollup: `c`, `fam`, `air`, `aip`, `pv`, `sq`, under the same paths as in the hourly rollups),
 * and its page views per UTC hour (`hv.h0` to `hv.h23`), so reads of whole days never need the
 * day's 24 hourly rollups, whatever buckets they sum them into (analytics/rollup-days.ts).
 */
function addDayCounters(hours: HourDelta[], days: DayDeltas): void {
  for (const h of hours) {
    const d = days.of(h.projectId, h.hour, h.bot);
    for (const path in h.inc) {
      const n = h.inc[path];
      add(d, path, n);
      if (path === 'c.views') add(d, VIEW_HOUR_PATHS[(h.hour - d.day) / HOUR], n);
    }
  }
}

/** The visitor-hours of a batch merged per visitor and UTC day. */
function visitorDays(visitors: VisitorDelta[], days: DayDeltas): VisitorDayDelta[] {
  const out = new Map<string, VisitorDayDelta>();
  for (const v of visitors) {
    const day = days.of(v.projectId, v.hour, v.bot);
    const id = `${v.projectId}|${day.day}|${v.bot ? 1 : 0}|${v.visitor}`;
    let d = out.get(id);
    if (!d) { d = { id, day, visitor: v.visitor, sets: new Map() }; out.set(id, d); }
    for (const [f, values] of v.sets) for (const value of values) putValue(d.sets, f, value);
  }
  return [...out.values()];
}

/** Counts the visitors and (visitor, value) pairs new to their day. */
async function countNewVisitorDays(c: BatchWriter, deltas: VisitorDayDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const existing = await c.insertNew('visitorDays', deltas.map((d) => {
    const doc: Record<string, unknown> = { _id: d.id, project_id: d.day.projectId, day: new Date(d.day.day), bot: d.day.bot, visitor: d.visitor };
    putArrays(doc, d.sets);
    return doc;
  }));
  const countNew = (d: VisitorDayDelta, before: Record<string, unknown> | null) => {
    for (const [f, values] of d.sets) {
      const had = before?.[f];
      for (const value of values) if (!(Array.isArray(had) && had.includes(value))) add(d.day, mapPath(dimsMap(f), value));
    }
  };
  const known: VisitorDayDelta[] = [];
  deltas.forEach((d, i) => {
    if (!existing.has(i)) { add(d.day, 'total'); countNew(d, null); } else known.push(d);
  });
  await Promise.all(known.map(async (d) => {
    if (d.sets.size === 0) return;
    const before = await c.findOneAndUpdate('visitorDays', d.id, { $addToSet: addToSetOf(d.sets) }, [...d.sets.keys()]);
    countNew(d, before as Record<string, unknown> | null);
  }));
}

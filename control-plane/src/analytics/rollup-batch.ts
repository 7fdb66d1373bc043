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
import { encodeKey } from './rollup-keys.ts';
import { addToSetOf, arraysOf, dayOfHour, rollupDeltas, rollupUpserts, visitorHourDoc, type HourDelta, type VisitorDelta } from './rollup-writes.ts';

const HOUR = 3_600_000;

/**
 * `format` of day documents that hold their hours' counters summed (written on insert). Days
 * first written before that (no `format`) are read hour by hour until the backfill sums them
 * (analytics/rollup-backfill.ts): `$inc` on such a day would hold only part of its hours.
 */
export const DAY_FORMAT = 2;

/** `_id` of a project's day uniques for one bot class. */
export const dayUniquesId = (projectId: string, dayMs: number, bot: boolean): string => `${projectId}|${dayMs}|${bot ? 1 : 0}`;

interface VisitorDayDelta { id: string; projectId: string; day: number; bot: boolean; visitor: string; sets: Map<string, Set<string>> }

/** Writes the rollups of `events` (already inserted as raw events). */
export async function writeRollups(c: BatchWriter, events: AnalyticsEvent[]): Promise<void> {
  const deltas = rollupDeltas(events);
  const days = new Map<string, { projectId: string; day: number; bot: boolean; inc: Record<string, number> }>();
  const inc = (projectId: string, day: number, bot: boolean, path: string, n = 1) => {
    const id = dayUniquesId(projectId, day, bot);
    let d = days.get(id);
    if (!d) { d = { projectId, day, bot, inc: {} }; days.set(id, d); }
    d.inc[path] = (d.inc[path] ?? 0) + n;
  };
  addDayCounters(deltas.hours, inc);
  // Events per day and bot class: how the backfill tells days the rollups miss (analytics/rollup-backfill.ts).
  for (const e of events) inc(e.project_id, dayOfHour(e.ts.getTime()), e.bot, 'events');
  // Visitor-hours first, then visitor-days, then the counters: a crash in between loses counts
  // (the backfill restores them from raw events) but never counts a visitor not written.
  // Inserted whole when new (cheaper than an upsert); an existing one (a visitor whose hour spans
  // batches) gets the batch's values added.
  if (deltas.visitors.length > 0) {
    const existing = await c.insertNew('visitorHours', deltas.visitors.map(visitorHourDoc));
    deltas.visitors.forEach((v, i) => { if (!existing.has(i)) inc(v.projectId, dayOfHour(v.hour), v.bot, `hours.h${(v.hour - dayOfHour(v.hour)) / HOUR}`); });
    const grow = deltas.visitors.filter((v, i) => existing.has(i) && v.sets.size > 0);
    if (grow.length > 0) await c.update('visitorHours', grow.map((v) => ({ filter: { _id: v.id }, update: { $addToSet: addToSetOf(v.sets) } })));
  }
  await countNewVisitorDays(c, visitorDays(deltas.visitors), inc);
  if (days.size > 0) {
    await c.update('days', [...days].map(([_id, d]) => ({
      filter: { _id }, update: { $inc: d.inc, $setOnInsert: { project_id: d.projectId, day: new Date(d.day), bot: d.bot, format: DAY_FORMAT } }, upsert: true,
    })));
  }
  if (deltas.hours.length > 0) await c.update('rollups', rollupUpserts(deltas.hours));
}

type Inc = (projectId: string, day: number, bot: boolean, path: string, n?: number) => void;

/**
 * What each day gains from the hourly deltas: every counter and map of its hours summed (the day
 * rollup: `c`, `fam`, `air`, `aip`, `pv`, `sq`, under the same paths as in the hourly rollups),
 * and its page views per UTC hour (`hv.h0` to `hv.h23`), so reads of whole days never need the
 * day's 24 hourly rollups, whatever buckets they sum them into (analytics/rollup-days.ts).
 */
function addDayCounters(hours: HourDelta[], inc: Inc): void {
  for (const h of hours) {
    const day = dayOfHour(h.hour);
    for (const [path, n] of Object.entries(h.inc)) {
      inc(h.projectId, day, h.bot, path, n);
      if (path === 'c.views') inc(h.projectId, day, h.bot, `hv.h${(h.hour - day) / HOUR}`, n);
    }
  }
}

/** The visitor-hours of a batch merged per visitor and UTC day. */
function visitorDays(visitors: VisitorDelta[]): VisitorDayDelta[] {
  const out = new Map<string, VisitorDayDelta>();
  for (const v of visitors) {
    const day = dayOfHour(v.hour);
    const id = `${v.projectId}|${day}|${v.bot ? 1 : 0}|${v.visitor}`;
    let d = out.get(id);
    if (!d) { d = { id, projectId: v.projectId, day, bot: v.bot, visitor: v.visitor, sets: new Map() }; out.set(id, d); }
    for (const [f, values] of v.sets) {
      let s = d.sets.get(f);
      if (!s) { s = new Set(); d.sets.set(f, s); }
      for (const value of values) s.add(value);
    }
  }
  return [...out.values()];
}

/** Counts the visitors and (visitor, value) pairs new to their day. */
async function countNewVisitorDays(c: BatchWriter, deltas: VisitorDayDelta[], inc: Inc): Promise<void> {
  if (deltas.length === 0) return;
  const existing = await c.insertNew('visitorDays', deltas.map((d) => ({ _id: d.id, project_id: d.projectId, day: new Date(d.day), bot: d.bot, visitor: d.visitor, ...arraysOf(d.sets) })));
  const countNew = (d: VisitorDayDelta, before: Record<string, unknown> | null) => {
    for (const [f, values] of d.sets) {
      const had = before?.[f];
      for (const value of values) if (!(Array.isArray(had) && had.includes(value))) inc(d.projectId, d.day, d.bot, `dims.${f}.${encodeKey(value)}`);
    }
  };
  const known: VisitorDayDelta[] = [];
  deltas.forEach((d, i) => {
    if (!existing.has(i)) { inc(d.projectId, d.day, d.bot, 'total'); countNew(d, null); } else known.push(d);
  });
  await Promise.all(known.map(async (d) => {
    if (d.sets.size === 0) return;
    const before = await c.findOneAndUpdate('visitorDays', d.id, { $addToSet: addToSetOf(d.sets) }, [...d.sets.keys()]);
    countNew(d, before as Record<string, unknown> | null);
  }));
}

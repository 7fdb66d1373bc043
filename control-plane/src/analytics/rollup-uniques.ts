/**
 * Unique visitors from the rollups. Visitor ids rotate every UTC day, so distinct visitors (or
 * distinct value-visitor pairs) over several days are the sum of each day's: a whole UTC day of
 * the window is read from its day uniques (one small document per bot class, kept current by the
 * recorder), and only the hours of days the window or a bucket cuts are counted from
 * visitor-hour documents in the database.
 */
import type { AnalyticsDayUniques } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import { dayKey, decodeKey } from './rollup-keys.ts';

export const DAY = 86_400_000;

export interface UniquesScope { projectId: string; from: Date; to: Date; excludeBots: boolean }
export interface Range { from: number; to: number }

/** The visitor-hour filter of a scope over some hour ranges (merged when adjacent). */
export function visitorMatch(q: UniquesScope, ranges: Range[]): Record<string, unknown> {
  const merged: Range[] = [];
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && last.to >= r.from) last.to = Math.max(last.to, r.to); else merged.push({ ...r });
  }
  const hour = (r: Range) => ({ hour: { $gte: new Date(r.from), $lt: new Date(r.to) } });
  const days = new Set<string>();
  for (const r of merged) for (let d = Math.floor(r.from / DAY) * DAY; d < r.to; d += DAY) days.add(dayKey(q.projectId, d));
  return {
    project_id: q.projectId,
    day_key: { $in: [...days] },
    ...(merged.length === 1 ? hour(merged[0]) : { $or: merged.map(hour) }),
    ...(q.excludeBots ? { bot: false } : {}),
  };
}

/** Starts of the UTC days the window overlaps, and which of them it holds whole. */
export function daysOf(q: { from: Date; to: Date }): { day: number; whole: boolean }[] {
  const out: { day: number; whole: boolean }[] = [];
  for (let d = Math.floor(q.from.getTime() / DAY) * DAY; d < q.to.getTime(); d += DAY) {
    out.push({ day: d, whole: d >= q.from.getTime() && d + DAY <= q.to.getTime() });
  }
  return out;
}

/** The hours of the window inside the given days. */
export function clip(q: { from: Date; to: Date }, days: number[]): Range[] {
  return days.map((d) => ({ from: Math.max(d, q.from.getTime()), to: Math.min(d + DAY, q.to.getTime()) }));
}

/** A day's unique visitors and page views in the scope of a query (both bot classes summed, or non-bots only). */
export interface DayCounts {
  total: number;
  /** Distinct visitors per UTC hour (index 0-23). */
  hours: number[];
  /** Distinct visitors per dimension (visitor-hour field) and escaped value. */
  dims: Record<string, Record<string, number>>;
  /** Page views per escaped path. */
  pv: Record<string, number>;
}

const addInto = (into: Record<string, number>, from: Record<string, number> | undefined) => {
  for (const [k, n] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + n;
};

/** A part of the day documents: visitors in all, per hour, per value of one dimension, page views per path. */
export type DayPart = 'total' | 'hours' | 'pv' | `dims.${string}`;

/**
 * Uniques of every UTC day the window overlaps that had visitors (in scope), in the given parts
 * (the others read as empty), read from the day
 * documents the recorder keeps current (analytics/rollup-batch.ts): one small document per day
 * and bot class, so a 30-day window costs one indexed query whether or not it was read before.
 */
export async function dayUniques(m: Models, q: UniquesScope, parts: readonly DayPart[]): Promise<Map<number, DayCounts>> {
  const days = daysOf(q).map((d) => d.day);
  if (days.length === 0) return new Map();
  const span = { $gte: new Date(days[0]), $lt: new Date(days[days.length - 1] + DAY) };
  // Only the parts the query uses: a day's document holds every dimension's counters, and
  // reading them all for an overview cost more than the overview.
  const projection = Object.fromEntries(['day', ...parts].map((p) => [p, 1]));
  const docs = await m.AnalyticsDayUniques.find({ project_id: q.projectId, day: span, ...(q.excludeBots ? { bot: false } : {}) }, projection).lean<AnalyticsDayUniques[]>();
  const out = new Map<number, DayCounts>();
  for (const doc of docs) {
    const day = new Date(doc.day).getTime();
    let c = out.get(day);
    if (!c) { c = { total: 0, hours: new Array<number>(24).fill(0), dims: {}, pv: {} }; out.set(day, c); }
    c.total += doc.total ?? 0;
    for (const [h, n] of Object.entries(doc.hours ?? {})) c.hours[Number(h.slice(1))] += n;
    for (const [f, byValue] of Object.entries(doc.dims ?? {})) addInto(c.dims[f] ??= {}, byValue);
    addInto(c.pv, doc.pv);
  }
  return out;
}

/** Adds a day's counts of one dimension (decoded) into `into`. */
export function addDayDim(into: Map<string, number>, day: DayCounts | undefined, field: string): void {
  for (const [k, n] of Object.entries(day?.dims?.[field] ?? {})) {
    const value = decodeKey(k) as string;
    into.set(value, (into.get(value) ?? 0) + n);
  }
}

/**
 * Distinct visitors per value of a visitor-hour field over the window: whole days from their
 * cached uniques, the cut days' hours counted in the database. `known`: day uniques already
 * read with (at least) this field's part.
 */
export async function visitorsPerValue(m: Models, q: UniquesScope, field: string, known?: Map<number, DayCounts>): Promise<Map<string, number>> {
  const days = daysOf(q);
  const cached = known ?? await dayUniques(m, q, [`dims.${field}`]);
  const out = new Map<string, number>();
  for (const d of days) if (d.whole) addDayDim(out, cached.get(d.day), field);
  const cut = days.filter((d) => !d.whole).map((d) => d.day);
  if (cut.length > 0) {
    const rows = await m.AnalyticsVisitorHour.aggregate<{ _id: string; visitors: number }>([
      { $match: visitorMatch(q, clip(q, cut)) },
      { $unwind: `$${field}` },
      { $group: { _id: { k: `$${field}`, v: '$visitor' } } },
      { $group: { _id: '$_id.k', visitors: { $sum: 1 } } },
    ] as any);
    for (const r of rows) out.set(r._id, (out.get(r._id) ?? 0) + r.visitors);
  }
  return out;
}

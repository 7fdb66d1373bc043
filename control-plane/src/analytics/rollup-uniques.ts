/**
 * Unique visitors from the rollups. Visitor ids rotate every UTC day, so distinct visitors (or
 * distinct value-visitor pairs) over several days are the sum of each day's: a whole UTC day of
 * the window is read from its cached day uniques (one small document), and only the hours of
 * days the window or a bucket cuts are counted from visitor-hour documents in the database.
 * A day's uniques are recomputed when its page views changed since they were cached; the
 * recorder writes visitor-hours before the counts, and the views are read before the
 * visitor-hours, so a cache entry never holds fewer visitors than its views say.
 */
import type { AnalyticsDayUniques, AnalyticsRollup } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import { VISITOR_DIMENSIONS } from './dimension-fields.ts';
import { dayKey, decodeKey, encodeKey } from './rollup-keys.ts';
import { counter } from './rollup-overview.ts';
import { PAGES_FIELD } from './rollup-writes.ts';

export const DAY = 86_400_000;
const HOUR = 3_600_000;
const DIM_FIELDS = [PAGES_FIELD, ...Object.keys(VISITOR_DIMENSIONS)];

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

/** Computes one day's uniques from its visitor-hours. */
async function computeDay(m: Models, q: UniquesScope, day: number, basis: number): Promise<AnalyticsDayUniques> {
  const scope = q.excludeBots ? 'humans' : 'all';
  const [docs, rollups] = await Promise.all([
    m.AnalyticsVisitorHour.find(visitorMatch(q, [{ from: day, to: day + DAY }])).lean(),
    m.AnalyticsRollup.find({ project_id: q.projectId, hour: { $gte: new Date(day), $lt: new Date(day + DAY) }, ...(q.excludeBots ? { bot: false } : {}) }, { pv: 1 }).lean<AnalyticsRollup[]>(),
  ]);
  // Read after the basis, so never older than it: a newer read only makes the next check recount.
  const pv: Record<string, number> = {};
  for (const r of rollups) for (const [k, n] of Object.entries(r.pv ?? {})) pv[k] = (pv[k] ?? 0) + n;
  const all = new Set<string>();
  const hours = Array.from({ length: 24 }, () => new Set<string>());
  const dims = new Map<string, Map<string, Set<string>>>(DIM_FIELDS.map((f) => [f, new Map()]));
  for (const doc of docs) {
    const v = doc.visitor;
    all.add(v);
    hours[Math.floor((new Date(doc.hour).getTime() - day) / HOUR)].add(v);
    for (const f of DIM_FIELDS) {
      const values = doc[f];
      if (!Array.isArray(values)) continue;
      const byValue = dims.get(f)!;
      for (const value of values as string[]) {
        let s = byValue.get(value);
        if (!s) { s = new Set(); byValue.set(value, s); }
        s.add(v);
      }
    }
  }
  const out: AnalyticsDayUniques = {
    _id: `${q.projectId}|${day}|${scope}`, project_id: q.projectId, day: new Date(day), scope, basis,
    total: all.size, hours: hours.map((s) => s.size),
    dims: Object.fromEntries([...dims].map(([f, byValue]) => [f, Object.fromEntries([...byValue].map(([value, s]) => [encodeKey(value), s.size]))])),
    pv,
  };
  await m.AnalyticsDayUniques.replaceOne({ _id: out._id }, out, { upsert: true });
  return out;
}

/** Up-to-date uniques of every UTC day the window overlaps that had page views (in scope). */
export async function dayUniques(m: Models, q: UniquesScope): Promise<Map<number, AnalyticsDayUniques>> {
  const days = daysOf(q).map((d) => d.day);
  if (days.length === 0) return new Map();
  const span = { $gte: new Date(days[0]), $lt: new Date(days[days.length - 1] + DAY) };
  const scope = q.excludeBots ? 'humans' : 'all';
  const [rollups, cached] = await Promise.all([
    m.AnalyticsRollup.find({ project_id: q.projectId, hour: span, ...(q.excludeBots ? { bot: false } : {}) }, { hour: 1, 'c.views': 1 }).lean<AnalyticsRollup[]>(),
    m.AnalyticsDayUniques.find({ project_id: q.projectId, scope, day: span }).lean(),
  ]);
  const basis = new Map<number, number>();
  for (const r of rollups) {
    const day = Math.floor(new Date(r.hour).getTime() / DAY) * DAY;
    basis.set(day, (basis.get(day) ?? 0) + counter(r.c, 'views'));
  }
  const byDay = new Map(cached.map((c) => [new Date(c.day).getTime(), c]));
  const out = new Map<number, AnalyticsDayUniques>();
  for (const [day, views] of basis) {
    if (views === 0) continue;
    const hit = byDay.get(day);
    out.set(day, hit && hit.basis === views ? hit : await computeDay(m, q, day, views));
  }
  return out;
}

/** Adds a day's counts of one dimension (decoded) into `into`. */
export function addDayDim(into: Map<string, number>, day: AnalyticsDayUniques | undefined, field: string): void {
  for (const [k, n] of Object.entries(day?.dims?.[field] ?? {})) {
    const value = decodeKey(k) as string;
    into.set(value, (into.get(value) ?? 0) + n);
  }
}

/**
 * Distinct visitors per value of a visitor-hour field over the window: whole days from their
 * cached uniques, the cut days' hours counted in the database.
 */
export async function visitorsPerValue(m: Models, q: UniquesScope, field: string, known?: Map<number, AnalyticsDayUniques>): Promise<Map<string, number>> {
  const days = daysOf(q);
  const cached = known ?? await dayUniques(m, q);
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

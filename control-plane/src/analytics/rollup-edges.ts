/**
 * Windows that start or end inside an hour (the default window ends "now"): the whole hours in
 * between are read from the rollups, and the part hours at either edge from raw events, turned
 * into rollup-shaped counts by the same code the recorder rolls batches up with
 * (analytics/rollup-writes.ts). Counts simply add up. Unique visitors do not: a visitor seen in
 * an edge counts only when the whole hours of the window did not already count them in the same
 * bucket or with the same value, which one query for the edge visitors' visitor-hours answers
 * (visitor ids rotate every UTC day, so only the edge's own day can hold them).
 */
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import type { AnalyticsRollup, AnalyticsVisitorHour } from '../db/models/analytics-rollup.ts';
import type { Models } from '../db/models/index.ts';
import type { Window } from './query-params.ts';
import { hourKey } from './rollup-keys.ts';
import { clip, DAY, visitorMatch, type Range, type UniquesScope } from './rollup-uniques.ts';
import { rollupDeltas, type VisitorDelta } from './rollup-writes.ts';

const HOUR = 3_600_000;

/** The whole hours of a window: [`from` rounded up, `to` rounded down). */
export function innerWindow(w: Window): Window {
  return { from: new Date(Math.ceil(w.from.getTime() / HOUR) * HOUR), to: new Date(Math.floor(w.to.getTime() / HOUR) * HOUR) };
}

/** What the part hours at the edges of a window add. */
export interface Edges {
  /** One rollup-shaped document per (part hour, bot class); `hour` is the start of its hour. */
  rollups: AnalyticsRollup[];
  /** Each visitor's values per part hour, as a visitor-hour would hold them. */
  visitors: VisitorDelta[];
}

/** Sets `value` at a dotted path of `into`. */
function setPath(into: Record<string, unknown>, path: string, value: number): void {
  const parts = path.split('.');
  let at = into;
  for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
  at[parts[parts.length - 1]] = value;
}

/** Reads the raw events of the part hours at the edges of `w` (none when it is whole hours). */
export async function readEdges(m: Models, projectId: string, w: Window): Promise<Edges> {
  const inner = innerWindow(w);
  const ranges = [{ $gte: w.from, $lt: inner.from }, { $gte: inner.to, $lt: w.to }].filter((r) => r.$gte.getTime() < r.$lt.getTime());
  if (ranges.length === 0) return { rollups: [], visitors: [] };
  const hours = ranges.map((r) => hourKey(projectId, Math.floor(r.$gte.getTime() / HOUR) * HOUR));
  // `hour_key` names the project, so it is the only equality the read needs.
  const events = await m.AnalyticsEvent.find({ hour_key: { $in: hours }, $or: ranges.map((ts) => ({ ts })) }, { _id: 0 }).lean<AnalyticsEvent[]>();
  const deltas = rollupDeltas(events);
  return {
    rollups: deltas.hours.map((h) => {
      const doc: Record<string, unknown> = { _id: h.id, project_id: h.projectId, hour: new Date(h.hour), bot: h.bot, c: {} };
      for (const [path, n] of Object.entries(h.inc)) setPath(doc, path, n);
      return doc as unknown as AnalyticsRollup;
    }),
    visitors: deltas.visitors,
  };
}

/**
 * Distinct (key, visitor) pairs the edges add to the whole hours of `inner`, counted per key.
 * `keys` gives the keys one visitor-hour (an edge's or a stored one) counts under: a bucket, a
 * dimension value, or one constant key for a plain total.
 */
export async function edgeUniques(
  m: Models, inner: UniquesScope, edges: Edges, keys: (v: { hour: number; values: (field: string) => string[] }) => string[], fields: string[] = [],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const mine = edges.visitors.filter((v) => !(inner.excludeBots && v.bot));
  if (mine.length === 0) return out;
  const pairs = new Map<string, string>();
  for (const v of mine) for (const k of keys({ hour: v.hour, values: (f) => [...v.sets.get(f) ?? []] })) pairs.set(`${k}\u0000${v.visitor}`, k);
  // The whole hours of the window on the edges' days, as a bucket or a value the edge visitors already have.
  const days = [...new Set(mine.map((v) => Math.floor(v.hour / DAY) * DAY))];
  const ranges: Range[] = clip(inner, days).filter((r) => r.from < r.to);
  if (ranges.length > 0) {
    const projection = Object.fromEntries(['visitor', 'hour', ...fields].map((f) => [f, 1]));
    const seen = await m.AnalyticsVisitorHour.find({ ...visitorMatch(inner, ranges), visitor: { $in: [...new Set(mine.map((v) => v.visitor))] } }, projection).lean<AnalyticsVisitorHour[]>();
    for (const doc of seen) {
      const values = (f: string) => (Array.isArray(doc[f]) ? doc[f] as string[] : []);
      for (const k of keys({ hour: new Date(doc.hour).getTime(), values })) pairs.delete(`${k}\u0000${doc.visitor}`);
    }
  }
  for (const k of pairs.values()) out.set(k, (out.get(k) ?? 0) + 1);
  return out;
}

/**
 * What one batch of classified events adds to the rollups, built in memory in one pass so a batch
 * costs one upsert per (hour, bot class) it touches and one write per visitor-hour, whatever its
 * size (written by analytics/rollup-batch.ts; also used for the part hours at a window's edges).
 * Updates are commutative (`$inc`, `$addToSet`), so concurrent recorders in several processes
 * and batches in any order give the same rollups.
 */
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import type { BatchUpdate } from './batch-writer.ts';
import { HUMANS, OTHER_BOTS, VISITOR_DIMENSIONS } from './dimension-fields.ts';
import { dayKey, encodeKey, FIELD_SEPARATOR, hourOf, rollupId } from './rollup-keys.ts';

/** Field of the visitor-hour documents that lists the page paths a visitor viewed. */
export const PAGES_FIELD = 'pages';

const VISITOR_FIELDS = Object.entries(VISITOR_DIMENSIONS).map(([dimension, fields]) => [dimension, Object.values(fields)] as const);

/** The value of a multi-field row, or undefined when a field is missing (such events are left out of that dimension, as in the raw query). */
export function rowValue(e: Record<string, unknown>, fields: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const f of fields) {
    const v = e[f];
    if (v === null || v === undefined) return undefined;
    parts.push(String(v));
  }
  return parts.join(FIELD_SEPARATOR);
}

/** What a batch adds to one rollup: `$inc` paths and amounts. */
export interface HourDelta { id: string; projectId: string; hour: number; bot: boolean; inc: Record<string, number> }
/** What a batch adds to one visitor-hour: the values per field. */
export interface VisitorDelta { id: string; projectId: string; hour: number; bot: boolean; visitor: string; sets: Map<string, Set<string>> }

const add = (inc: Record<string, number>, field: string, n = 1) => { inc[field] = (inc[field] ?? 0) + n; };

/** What `events` add to the hourly rollups and the visitor-hours, in one pass. */
export function rollupDeltas(events: AnalyticsEvent[]): { hours: HourDelta[]; visitors: VisitorDelta[] } {
  const hours = new Map<string, HourDelta>();
  const visitors = new Map<string, VisitorDelta>();
  for (const e of events) {
    const hour = hourOf(e.ts);
    const id = rollupId(e.project_id, hour, e.bot);
    let h = hours.get(id);
    if (!h) { h = { id, projectId: e.project_id, hour, bot: e.bot, inc: {} }; hours.set(id, h); }
    const inc = h.inc;
    const aiRead = e.ai_family !== undefined && (e.kind === 'page_view' || (e.kind === 'export' && e.export_kind === 'markdown'));
    if (aiRead) {
      add(inc, `air.${encodeKey(e.ai_family)}`);
      if (e.path !== undefined) add(inc, `aip.${encodeKey(e.path)}`);
    }
    switch (e.kind) {
      case 'page_view': {
        add(inc, 'c.views');
        add(inc, `fam.${encodeKey(e.ai_family ?? (e.bot ? OTHER_BOTS : HUMANS))}`);
        if (e.channel === 'AI') add(inc, 'c.referrals');
        if (e.path !== undefined) add(inc, `pv.${encodeKey(e.path)}`);
        const vid = `${id}|${e.visitor}`;
        let v = visitors.get(vid);
        if (!v) { v = { id: vid, projectId: e.project_id, hour, bot: e.bot, visitor: e.visitor, sets: new Map() }; visitors.set(vid, v); }
        const row = e as unknown as Record<string, unknown>;
        const sets = v.sets;
        const put = (field: string, value: string | undefined) => {
          if (value === undefined) return;
          let s = sets.get(field);
          if (!s) { s = new Set(); sets.set(field, s); }
          s.add(value);
        };
        put(PAGES_FIELD, e.path);
        for (const [dimension, fields] of VISITOR_FIELDS) put(dimension, rowValue(row, fields));
        break;
      }
      case 'search': {
        const q = `sq.${encodeKey(e.query)}`;
        add(inc, 'c.searches');
        add(inc, `${q}.n`);
        if (typeof e.result_count === 'number') { add(inc, `${q}.s`, e.result_count); add(inc, `${q}.c`); }
        break;
      }
      case 'feedback': if (e.vote === 'up') add(inc, 'c.up'); else if (e.vote === 'down') add(inc, 'c.down'); break;
      case 'export': if (e.export_kind) add(inc, `c.${e.export_kind}`); break;
      case 'assistant_open': add(inc, 'c.opens'); break;
      case 'assistant_message': add(inc, 'c.messages'); break;
      default: break;
    }
  }
  // An hour of only engagement events has nothing to count (and `$inc` may not be empty).
  return { hours: [...hours.values()].filter((h) => Object.keys(h.inc).length > 0), visitors: [...visitors.values()] };
}

/** Start of the UTC day holding the hour `hourMs`. */
export const dayOfHour = (hourMs: number): number => Math.floor(hourMs / 86_400_000) * 86_400_000;

/** Upserts of the hourly rollups of the deltas. */
export function rollupUpserts(hours: HourDelta[]): BatchUpdate[] {
  return hours.map((h) => ({
    filter: { _id: h.id },
    update: { $inc: h.inc, $setOnInsert: { project_id: h.projectId, hour: new Date(h.hour), bot: h.bot } },
    upsert: true,
  }));
}

/** The values of each field as arrays. */
export const arraysOf = (sets: Map<string, Set<string>>): Record<string, string[]> => Object.fromEntries([...sets].map(([f, s]) => [f, [...s]]));

/** `$addToSet` of every value of each field. */
export const addToSetOf = (sets: Map<string, Set<string>>): Record<string, { $each: string[] }> => Object.fromEntries([...sets].map(([f, s]) => [f, { $each: [...s] }]));

/** The visitor-hour document of a delta, as first inserted. */
export function visitorHourDoc(v: VisitorDelta): { _id: string } {
  return { _id: v.id, project_id: v.projectId, hour: new Date(v.hour), bot: v.bot, visitor: v.visitor, day_key: dayKey(v.projectId, dayOfHour(v.hour)), ...arraysOf(v.sets) } as { _id: string };
}

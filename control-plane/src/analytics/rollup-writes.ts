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
import { dayKey, FIELD_SEPARATOR, hourOf, mapPath, rollupId } from './rollup-keys.ts';

/** Field of the visitor-hour documents that lists the page paths a visitor viewed. */
export const PAGES_FIELD = 'pages';

const VISITOR_FIELDS = Object.entries(VISITOR_DIMENSIONS).map(([dimension, fields]) => [dimension, Object.values(fields)] as const);

/** The value of a multi-field row, or undefined when a field is missing (such events are left out of that dimension, as in the raw query). */
export function rowValue(e: Record<string, unknown>, fields: readonly string[]): string | undefined {
  if (fields.length === 1) {
    const v = e[fields[0]];
    return v === null || v === undefined ? undefined : String(v);
  }
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
/**
 * What a batch adds to one visitor-hour: the distinct values per field. Lists, not sets: a
 * visitor-hour holds one or a few values per field, which a list checks as fast as a set, and a
 * set per field per visitor was much of the garbage ingestion made.
 */
export interface VisitorDelta { id: string; projectId: string; hour: number; bot: boolean; visitor: string; sets: Map<string, string[]> }

const add = (inc: Record<string, number>, field: string, n = 1) => { inc[field] = (inc[field] ?? 0) + n; };

/** Adds `value` to the field's list of distinct values (nothing for a missing value). */
export function putValue(sets: Map<string, string[]>, field: string, value: string | undefined): void {
  if (value === undefined) return;
  const list = sets.get(field);
  if (!list) sets.set(field, [value]);
  else if (!list.includes(value)) list.push(value);
}

/** What `events` add to the hourly rollups and the visitor-hours, in one pass. */
export function rollupDeltas(events: AnalyticsEvent[]): { hours: HourDelta[]; visitors: VisitorDelta[] } {
  const hours = new Map<string, HourDelta>();
  const visitors = new Map<string, VisitorDelta>();
  // The rollup of the previous event per bot class: events come in time order, so most events
  // add to the same one, found without building its `_id`.
  const last: (HourDelta | undefined)[] = [undefined, undefined];
  for (const e of events) {
    const hour = hourOf(e.ts);
    let h = last[e.bot ? 1 : 0];
    if (!h || h.hour !== hour || h.projectId !== e.project_id) {
      const id = rollupId(e.project_id, hour, e.bot);
      h = hours.get(id);
      if (!h) { h = { id, projectId: e.project_id, hour, bot: e.bot, inc: {} }; hours.set(id, h); }
      last[e.bot ? 1 : 0] = h;
    }
    const inc = h.inc;
    const aiRead = e.ai_family !== undefined && (e.kind === 'page_view' || (e.kind === 'export' && e.export_kind === 'markdown'));
    if (aiRead) {
      add(inc, mapPath('air', e.ai_family));
      if (e.path !== undefined) add(inc, mapPath('aip', e.path));
    }
    switch (e.kind) {
      case 'page_view': {
        add(inc, 'c.views');
        add(inc, mapPath('fam', e.ai_family ?? (e.bot ? OTHER_BOTS : HUMANS)));
        if (e.channel === 'AI') add(inc, 'c.referrals');
        if (e.path !== undefined) add(inc, mapPath('pv', e.path));
        const vid = `${h.id}|${e.visitor}`;
        let v = visitors.get(vid);
        if (!v) { v = { id: vid, projectId: e.project_id, hour, bot: e.bot, visitor: e.visitor, sets: new Map() }; visitors.set(vid, v); }
        const row = e as unknown as Record<string, unknown>;
        putValue(v.sets, PAGES_FIELD, e.path);
        for (const [dimension, fields] of VISITOR_FIELDS) putValue(v.sets, dimension, rowValue(row, fields));
        break;
      }
      case 'search': {
        const q = mapPath('sq', e.query);
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

/** Copies the values of each field, as arrays, into `doc`. */
export function putArrays(doc: Record<string, unknown>, sets: Map<string, string[]>): void {
  for (const [f, list] of sets) doc[f] = list.slice();
}

/** `$addToSet` of every value of each field. */
export function addToSetOf(sets: Map<string, string[]>): Record<string, { $each: string[] }> {
  const out: Record<string, { $each: string[] }> = {};
  for (const [f, list] of sets) out[f] = { $each: list.slice() };
  return out;
}

/** The visitor-hour document of a delta, as first inserted. */
export function visitorHourDoc(v: VisitorDelta): { _id: string } {
  const doc: Record<string, unknown> = { _id: v.id, project_id: v.projectId, hour: new Date(v.hour), bot: v.bot, visitor: v.visitor, day_key: dayKey(v.projectId, dayOfHour(v.hour)) };
  putArrays(doc, v.sets);
  return doc as { _id: string };
}

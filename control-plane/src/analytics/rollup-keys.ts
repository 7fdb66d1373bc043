/**
 * How values are stored in the analytics rollups. Map keys are field names, and MongoDB field
 * names may not contain dots or start with `$` (paths such as `/guides/v1.2` do): a key is `k`
 * followed by the value with `%`, `.` and `$` percent-encoded, or `n` for a missing value (a
 * search without a query). Rows of several fields (a region and its country) are one string,
 * the fields joined by U+0001, which sorts before every character a value holds, so ordering the
 * joined strings orders the rows field by field as the raw breakdown does.
 */
import { BoundedCache } from './bounded-cache.ts';

/** Key of a map entry for `value` (null or undefined: the missing value). */
export function encodeKey(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'n';
  return `k${value.replace(/[%.$]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}`;
}

/**
 * Paths of map entries per map (`pv`, `dims.country`, ...), cached: every event adds to a few
 * maps, and escaping and joining the same few thousand values again for each one was a large
 * share of ingestion's CPU (and garbage). Bounded like the classification caches.
 */
const mapPaths = new Map<string, { cache: BoundedCache<string>; make: (value: string) => string }>();

/** `<map>.<encodeKey(value)>`: the `$inc` path of `value`'s entry in the map at `map`. */
export function mapPath(map: string, value: string | null | undefined): string {
  if (value === null || value === undefined) return `${map}.n`;
  let paths = mapPaths.get(map);
  if (!paths) {
    paths = { cache: new BoundedCache<string>(20_000), make: (v) => `${map}.${encodeKey(v)}` };
    mapPaths.set(map, paths);
  }
  return paths.cache.get(value, paths.make);
}

/** The value a map key stands for. */
export function decodeKey(key: string): string | null {
  if (key === 'n') return null;
  return key.slice(1).replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Separator of the fields of a multi-field row. */
export const FIELD_SEPARATOR = '\u0001';

/** Start of the UTC hour holding `at`, in ms. */
export const hourOf = (at: Date): number => Math.floor(at.getTime() / 3_600_000) * 3_600_000;

/** `_id` of the rollup of a project's bot or non-bot traffic in one hour. */
export const rollupId = (projectId: string, hourMs: number, bot: boolean): string => `${projectId}|${hourMs}|${bot ? 1 : 0}`;

/** `hour_key` of a project's raw events in one UTC hour. */
export const hourKey = (projectId: string, hourMs: number): string => `${projectId}|${hourMs}`;

/** `day_key` of the visitor-hours of a project's UTC day. */
export const dayKey = (projectId: string, dayMs: number): string => `${projectId}|${dayMs}`;

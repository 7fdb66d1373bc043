/**
 * Shares equal values between the documents the embedded database holds. Every document arrives
 * as freshly decoded BSON (or freshly built, from the in-process analytics writes), so a million analytics events hold a million copies of the same
 * project id, kind, browser, country and hour key strings, and every hourly rollup or
 * visitor-hour its own Date of the same hour. Stored documents are never mutated in place
 * (updates are copy-on-write, see update-document.ts and fast-update.ts), so equal immutable
 * values can be one object: the heap keeps one copy and the garbage collector marks one.
 *
 * Arrays are stored at their exact length, and an array of one string is shared too (see
 * `share`).
 *
 * Only values that repeat are worth a table entry: short strings (ids, names, paths, hashes) and
 * Dates on a whole hour (rollups, visitor-hours and days repeat a few instants; an event's
 * millisecond timestamp is almost never repeated, so it keeps its own Date). The tables are
 * bounded: when one fills up it starts again empty (values already shared stay shared).
 */
import type { Document } from 'bson';

/** Longest string shared; longer ones (page bodies, queries with text) rarely repeat exactly. */
const MAX_SHARED_LENGTH = 64;
/** Entries per table before it starts again: bounds what the table itself holds alive. */
const MAX_ENTRIES = 500_000;
const HOUR_MS = 3_600_000;

const strings = new Map<string, string>();
const hours = new Map<number, Date>();
const singletons = new Map<string, string[]>();

/** The shared copy of `s` (itself the first time it is seen). */
export function sharedString(s: string): string {
  if (s.length > MAX_SHARED_LENGTH) return s;
  const hit = strings.get(s);
  if (hit !== undefined) return hit;
  if (strings.size >= MAX_ENTRIES) strings.clear();
  strings.set(s, s);
  return s;
}

/**
 * The shared, frozen array holding only `s`. Most lists of a visitor-hour (its country, browser,
 * device, channel, often its one page) hold one value, and they repeat across visitors. Frozen:
 * an in-place change of a stored array (never done: updates copy) would throw instead of
 * changing every document that holds it.
 */
function sharedSingleton(s: string): string[] {
  const hit = singletons.get(s);
  if (hit !== undefined) return hit;
  if (singletons.size >= MAX_ENTRIES) singletons.clear();
  const list = Object.freeze([sharedString(s)]) as string[];
  singletons.set(s, list);
  return list;
}

/** The shared Date of an instant on a whole UTC hour, else `d` itself. */
function sharedDate(d: Date): Date {
  const t = d.getTime();
  if (t % HOUR_MS !== 0) return d;
  const hit = hours.get(t);
  if (hit !== undefined) return hit;
  if (hours.size >= MAX_ENTRIES) hours.clear();
  hours.set(t, d);
  return d;
}

/** The shared form of one value: strings and hour Dates swapped, objects and arrays walked. */
function share(v: unknown): unknown {
  if (typeof v === 'string') return sharedString(v);
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return sharedDate(v);
  if (Array.isArray(v)) {
    if (v.length === 1 && typeof v[0] === 'string') return sharedSingleton(v[0]);
    // A copy of exactly its length: a decoded array grew by `push` and keeps room for 17
    // elements (136 bytes) even when it holds one.
    const out = v.slice();
    for (let i = 0; i < out.length; i++) out[i] = share(out[i]);
    return out;
  }
  // Plain sub-documents only: BSON value classes (ObjectId, Binary, ...) keep their own state.
  if (Object.getPrototypeOf(v) === Object.prototype) shareValues(v as Document);
  return v;
}

/**
 * Replaces, in place, the strings and whole-hour Dates of a document about to be stored by their
 * shared copies. The document must be one the store owns (decoded for it, or a new version built
 * by an update): equal values are swapped for equal values, so it reads exactly the same.
 */
export function shareValues(doc: Document): Document {
  for (const k in doc) {
    // Assigned even when `===` holds: equal strings compare equal but are separate copies.
    // `__proto__` is skipped: assigning it would set the prototype, not the field. A top-level
    // `_id` is unique in its collection: sharing it would only fill the table.
    if (k !== '__proto__' && k !== '_id') doc[k] = share(doc[k]);
  }
  return doc;
}

/**
 * Large maps of builder state (the manifest's files, pages, shell inputs and objects; the page
 * summaries) stored as buckets: the map's keys are spread over a power-of-two number of buckets
 * by a hash of the key, and each bucket is one gzipped JSON object whose key names its content
 * (`<prefix><sha256>.json.gz`). A build that changes one page changes a few entries, so it
 * serialises, compresses and uploads a few buckets instead of the whole map (at 10,000 pages the
 * manifest and summaries were 28 MB of JSON rewritten by every edit), and a long-lived builder
 * (the deployment worker, the dev server) keeps the buckets it read or wrote parsed in memory:
 * since a bucket's key is a hash of its bytes, a remembered bucket is the stored one, and the next
 * build neither downloads nor parses it.
 *
 * Buckets are immutable: a build writes new ones, then the object that lists them (manifest,
 * summaries), then deletes the buckets no longer listed (`unreferenced`), so a crash at any point
 * leaves a listing whose buckets all exist.
 */
import type { ObjectStore } from '../store/object-store.ts';
import { decodeJson, gzipBytes, GZIP_JSON } from './gzip-json.ts';
import { sha256 } from '../sha256.ts';

/** How a map is stored: the object key of each bucket, in bucket order (the count is a power of two). */
export type StoredMap = string[];

/**
 * JSON bytes a bucket aims at. An edit rewrites (serialises, compresses, hashes and parses again)
 * each bucket holding a changed entry, so buckets are sized by bytes, not entries: a page's
 * summary is ~2 KB of JSON and a manifest object entry ~100 bytes, so a bucket of entries would
 * be twenty times larger for summaries (builder docs/benchmarks.md, "Bucket size").
 */
const BUCKET_BYTES = 64 * 1024;
/** At most this many buckets (bigger buckets past that). */
const MAX_BUCKETS = 1024;
/** Entries serialised to estimate a map's size. */
const SAMPLES = 64;

/** Buckets for `bytes` of JSON: the smallest power of two keeping buckets at `BUCKET_BYTES` or under. */
export function bucketCount(bytes: number): number {
  let n = 1;
  while (n < MAX_BUCKETS && bytes > n * BUCKET_BYTES) n *= 2;
  return n;
}

/**
 * The bucket count for `map`: from its estimated JSON size (entries sampled evenly), but the
 * previous count as long as its buckets stay between a quarter of and twice `BUCKET_BYTES`, so a
 * map whose size hovers at a threshold is not rewritten whole, one build in two.
 */
function countFor(map: Readonly<Record<string, unknown>>, keys: readonly string[], previous?: number): number {
  if (keys.length === 0) return 1;
  const step = Math.max(1, Math.floor(keys.length / SAMPLES));
  let sampled = 0;
  let bytes = 0;
  for (let i = 0; i < keys.length; i += step, sampled++) bytes += keys[i].length + (JSON.stringify(map[keys[i]])?.length ?? 0) + 4;
  const estimate = (bytes / sampled) * keys.length;
  if (previous && Number.isInteger(Math.log2(previous)) && estimate <= previous * BUCKET_BYTES * 2 && (previous === 1 || estimate > (previous * BUCKET_BYTES) / 4)) return previous;
  return bucketCount(estimate);
}

/** FNV-1a of the key's UTF-16 units: cheap, stable across processes, and well spread for paths and hashes. */
function bucketOf(key: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (count - 1);
}

/**
 * Buckets this process read or wrote, by object key, most recently used last; bounded by the
 * JSON size they came from. Entries are frozen: one build's reads must not see another's writes.
 */
const remembered = new Map<string, { entries: Readonly<Record<string, unknown>>; bytes: number }>();
let rememberedBytes = 0;
/** JSON bytes of buckets kept parsed (a 10,000-page site's state is about 28 MB). */
const MEMORY_BYTES = 96 * 1024 * 1024;

function remember(key: string, entries: Record<string, unknown>, bytes: number): void {
  if (remembered.has(key)) return;
  for (const value of Object.values(entries)) if (value !== null && typeof value === 'object') Object.freeze(value);
  remembered.set(key, { entries: Object.freeze(entries), bytes });
  rememberedBytes += bytes;
  for (const [old, { bytes: size }] of remembered) {
    if (rememberedBytes <= MEMORY_BYTES) break;
    remembered.delete(old);
    rememberedBytes -= size;
  }
}

/**
 * Whole maps this process read or wrote, by their listing, most recently used last; bounded by
 * their entry count. A long-lived builder's next build reads the listing its last build wrote:
 * it gets that map back without merging its buckets (at 10,000 pages the manifest's maps and the
 * summaries hold ~90,000 entries), and writes the next one by comparing with it
 * (`changedGroups`). A listing names its buckets by content, so the map it names is the one
 * remembered. The maps are shared, so they are frozen (a map written is frozen too), and their
 * values must be left unchanged: one build cannot change what the next reads.
 */
const maps = new Map<string, { map: Readonly<Record<string, unknown>>; entries: number }>();
let mapEntries = 0;
/** Entries of remembered maps at most (a 10,000-page site's state is about 100,000). */
const MAP_ENTRIES = 400_000;

function rememberMap(stored: StoredMap, map: Readonly<Record<string, unknown>>, entries: number): void {
  const name = stored.join(' ');
  const old = maps.get(name);
  if (old) { maps.delete(name); mapEntries -= old.entries; }
  maps.set(name, { map: Object.freeze(map), entries });
  mapEntries += entries;
  for (const [key, value] of maps) {
    if (mapEntries <= MAP_ENTRIES) break;
    maps.delete(key);
    mapEntries -= value.entries;
  }
}

function recallMap(stored: StoredMap): { map: Readonly<Record<string, unknown>>; entries: number } | undefined {
  const name = stored.join(' ');
  const hit = maps.get(name);
  if (!hit) return undefined;
  maps.delete(name); // most recently used last
  maps.set(name, hit);
  return hit;
}

function recall(key: string): Readonly<Record<string, unknown>> | undefined {
  const hit = remembered.get(key);
  if (!hit) return undefined;
  remembered.delete(key); // most recently used last
  remembered.set(key, hit);
  return hit.entries;
}

/**
 * The map stored as `stored`, merged into one record whose values are shared with this process's
 * memory of the buckets and frozen (copy before changing one); `undefined` when a bucket is
 * missing or unreadable (the caller treats the state as lost). The record is frozen too: it is
 * shared with this process's other builds (see `rememberMap`).
 */
export async function readBucketedMap<V>(store: ObjectStore, stored: StoredMap): Promise<Record<string, V> | undefined> {
  const merged = recallMap(stored);
  if (merged) return merged.map as Record<string, V>;
  const buckets = await Promise.all(stored.map(async (key) => {
    const known = recall(key);
    if (known) return known;
    const bytes = await store.get(key);
    // A bucket must hold the bytes its key names: what this process remembers is shared by every
    // build it runs, so a bucket written with other contents under that key is refused (lost state).
    const entries = await decodeJson<Record<string, unknown>>(bytes, (json) => bucketKey(prefixOf(key), json) === key);
    if (entries === undefined || typeof entries !== 'object' || entries === null || Array.isArray(entries)) return undefined;
    remember(key, entries, bytes!.byteLength * 6);
    return entries;
  }));
  if (buckets.some((b) => b === undefined)) return undefined;
  const map = Object.assign({}, ...buckets) as Record<string, V>;
  // Keys are spread over buckets: no key is in two.
  rememberMap(stored, map, buckets.reduce((n, b) => n + Object.keys(b!).length, 0));
  return map;
}

/**
 * Stores `map` under `prefix` (ending with `/`) and returns its listing. A bucket whose entries are those of the
 * previous listing's bucket at the same position (known to this process) keeps that object
 * without serialising it; any other is written under the hash of its bytes.
 *
 * `changed`, when the caller knows it: the keys at which `map` may differ from the map stored as
 * `previous` (added, changed or removed); every other key holds the same value. Only those are
 * compared, so an edit's write is proportional to the edit, not to the site. A key count that
 * does not add up (an addition or removal not reported) falls back to comparing every entry.
 */
export async function writeBucketedMap<V>(store: ObjectStore, prefix: string, map: Readonly<Record<string, V>>, previous?: StoredMap, changed?: Iterable<string>): Promise<StoredMap> {
  const keys = Object.keys(map);
  const count = countFor(map, keys, previous?.length);
  const groups = (previous?.length === count && ((changed && reportedGroups(map, keys.length, previous, changed)) || changedGroups(map, keys, previous))) || allGroups(keys, count);
  const listed = new Set(previous);
  const stored = await Promise.all(groups.map(async (group, i) => {
    const before = previous?.length === count ? previous[i] : undefined;
    if (group === undefined) return before!;
    const known = before === undefined ? undefined : recall(before);
    if (known && sameEntries(known, group, map)) return before!;
    // Sorted, so equal maps give equal bytes (and keys) whatever their order.
    group.sort();
    const entries = Object.fromEntries(group.map((k) => [k, map[k]]));
    const json = Buffer.from(JSON.stringify(entries));
    const key = bucketKey(prefix, json);
    // Only a bucket the previous listing has is sure to be in the store: one this process
    // remembers may have been deleted since (an entry changed, then changed back).
    if (!listed.has(key)) await store.put(key, await gzipBytes(json), { contentType: GZIP_JSON, cacheControl: 'no-store' });
    if (!recall(key)) remember(key, JSON.parse(json.toString('utf8')) as Record<string, unknown>, json.byteLength);
    return key;
  }));
  rememberMap(stored, map, keys.length);
  return stored;
}

/** Every bucket's keys. */
function allGroups(keys: readonly string[], count: number): string[][] {
  const groups: string[][] = Array.from({ length: count }, () => []);
  for (const key of keys) groups[bucketOf(key, count)].push(key);
  return groups;
}

/**
 * The keys of the buckets of `previous` whose entries differ in `map` (`undefined` for a bucket
 * that stays as it is), found by comparing `map` with the map this process last read or wrote
 * as `previous`, entry by entry, most often by identity: a long-lived builder's edit changes a
 * few entries of 10,000s, and neither hashes every key to its bucket nor compares every bucket.
 * `undefined` when that map or a changed bucket's entries are no longer in memory.
 */
function changedGroups<V>(map: Readonly<Record<string, V>>, keys: readonly string[], previous: StoredMap): Array<string[] | undefined> | undefined {
  const known = recallMap(previous);
  if (!known) return undefined;
  const before = known.map;
  const count = previous.length;
  const changed = new Set<number>();
  let kept = 0;
  for (const key of keys) {
    const had = Object.hasOwn(before, key);
    if (had) kept++;
    if (!had || !sameJson(before[key], map[key])) changed.add(bucketOf(key, count));
  }
  // Keys gone since: only looked for when some are.
  if (kept < known.entries) for (const key in before) if (!Object.hasOwn(map, key)) changed.add(bucketOf(key, count));
  // Keys new since: each in a changed bucket.
  const added = kept < keys.length ? keys.filter((key) => !Object.hasOwn(before, key)) : [];
  return groupsOf(map, previous, changed, added);
}

/**
 * As `changedGroups`, but comparing only the keys the caller reports as possibly changed;
 * `undefined` (compare everything) when the map this process last read or wrote as `previous`,
 * or a changed bucket's entries, are no longer in memory, or when the keys of `map` are not those
 * of that map plus the reported additions, minus the reported removals.
 */
function reportedGroups<V>(map: Readonly<Record<string, V>>, size: number, previous: StoredMap, changed: Iterable<string>): Array<string[] | undefined> | undefined {
  const known = recallMap(previous);
  if (!known) return undefined;
  const before = known.map;
  const count = previous.length;
  const buckets = new Set<number>();
  const added: string[] = [];
  let removed = 0;
  for (const key of new Set(changed)) {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(map, key);
    if (had && has && sameJson(before[key], map[key])) continue;
    if (!had && !has) continue;
    buckets.add(bucketOf(key, count));
    if (!had) added.push(key);
    else if (!has) removed++;
  }
  if (known.entries + added.length - removed !== size) return undefined;
  return groupsOf(map, previous, buckets, added);
}

/**
 * The keys of `map` in each of `changed` buckets of `previous` (the bucket's remembered keys still
 * in `map`, and the `added` keys that fall in it), `undefined` for the others; `undefined` when a
 * changed bucket's entries are no longer in memory.
 */
function groupsOf<V>(map: Readonly<Record<string, V>>, previous: StoredMap, changed: ReadonlySet<number>, added: readonly string[]): Array<string[] | undefined> | undefined {
  const groups: Array<string[] | undefined> = Array.from({ length: previous.length }, () => undefined);
  for (const i of changed) {
    const entries = recall(previous[i]);
    if (!entries) return undefined;
    groups[i] = Object.keys(entries).filter((key) => Object.hasOwn(map, key));
  }
  for (const key of added) groups[bucketOf(key, previous.length)]!.push(key);
  return groups;
}

/** The key of a bucket of JSON bytes `json` under `prefix`. */
function bucketKey(prefix: string, json: Uint8Array): string {
  return `${prefix}${sha256(json).slice(0, 32)}.json.gz`;
}

const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);

/** Buckets of `previous` that `next` no longer lists: deleted once the new listing is written. */
export function unreferenced(previous: StoredMap | undefined, next: readonly StoredMap[]): string[] {
  const kept = new Set(next.flat());
  return [...new Set(previous ?? [])].filter((key) => !kept.has(key));
}

/** Deletes the buckets of the `previous` listings that the `next` ones no longer list; call once the new listing is written. */
export async function deleteUnreferenced(store: ObjectStore, previous: ReadonlyArray<StoredMap | undefined>, next: readonly StoredMap[]): Promise<void> {
  const gone = previous.flatMap((list) => unreferenced(list, next));
  if (gone.length > 0) await store.delete(gone);
}

function sameEntries(known: Readonly<Record<string, unknown>>, group: readonly string[], map: Readonly<Record<string, unknown>>): boolean {
  if (Object.keys(known).length !== group.length) return false;
  return group.every((k) => k in known && sameJson(known[k], map[k]));
}

/**
 * Deep equality of JSON values (what serialising both would give, key order aside: either order
 * describes the same entry), without serialising or allocating.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    if (x[k] === undefined) continue; // JSON leaves undefined out
    if (!sameJson(x[k], y[k])) return false;
    count++;
  }
  for (const k in y) if (y[k] !== undefined) count--;
  return count === 0;
}

import { checkOutput, type BuildLimits } from './limits/build-limits.ts';
import { cacheControlFor, contentTypeFor } from './store/content-type.ts';
import type { ObjectStore } from './store/object-store.ts';
import { sha256, sha256OfRecentText } from './sha256.ts';

/** Texts this long or longer are hashed through `sha256OfRecentText`. */
const LARGE_TEXT = 64 * 1024;

/** What the manifest remembers of one published object: its sha256 and size. */
export interface PublishedObject { hash: string; size: number }

/** Counts of one publish. */
export interface PublishStats {
  uploaded: number;
  deleted: number;
  objects: Record<string, PublishedObject>;
  /** Keys whose entry in `objects` is not the previous manifest's (new bytes, new keys, deleted keys): the manifest compares only these. */
  changed: string[];
}

/**
 * Publishes a site into a store, uploading only objects whose bytes changed since the last
 * publish (compared with the previous manifest's hashes, never by downloading), with bounded
 * parallelism. Removed objects are deleted by `finish`, after every new object is up; the caller
 * writes the manifest after that, so a crash at any point leaves the old manifest describing a
 * site whose objects all still exist.
 */
export interface Publisher {
  /** Publishes `bytes` at `key` unless the previous publish had the same bytes there; `hash`: their sha256 (hex), when the caller has it. */
  emit(key: string, bytes: Uint8Array | string, hash?: string): Promise<void>;
  /** Keeps the previous object at `key` as it is (not re-rendered this build). */
  keep(key: string): boolean;
  /** Whether `key` was already emitted or kept by this build. */
  has(key: string): boolean;
  /**
   * Ends emitting (later `emit`/`keep` calls throw) and returns what the next manifest lists,
   * while uploads may still run: the manifest's buckets, which nothing names yet, are written
   * meanwhile. `finish` seals too.
   */
  seal(): Pick<PublishStats, 'objects' | 'changed'>;
  /** Waits for uploads, deletes what this build did not emit or keep, and returns counts. */
  finish(): Promise<PublishStats>;
}

/** Objects in flight at most before `emit` waits (bounded memory on large sites). */
const MAX_PENDING = 32;

/** `map[key]` when `map` holds it itself: a key such as `constructor` (a file at the site's root) is not Object's. */
const own = <V>(map: Record<string, V>, key: string): V | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

/**
 * Key counts of the object maps publishers sealed. A long-lived builder's next publisher gets
 * that map back as its `previous` (the manifest it wrote, remembered): with its count known, and
 * every previous key emitted or kept again (an edit), no key is looked for among 40,000 to find
 * what was removed.
 */
const sizes = new WeakMap<object, number>();

/** A publisher over `store` given the previous manifest's objects. */
export function createPublisher(store: ObjectStore, previous: Record<string, PublishedObject>, limits: BuildLimits): Publisher {
  const objects: Record<string, PublishedObject> = {};
  const pending = new Set<Promise<void>>();
  // Emitters waiting for a free upload slot. (Waiting with `Promise.race(pending)` attached a
  // reaction to every upload in flight on each call: with shells, exports and search bundles
  // emitted side by side, half a million of them piled up and the heap reached 1 GB at 2,000 pages.)
  const waiting: Array<() => void> = [];
  // The first failed upload, thrown by the next `emit` or by `finish`.
  let failure: { error: unknown } | undefined;
  let uploaded = 0;
  let total = 0;
  const changed: string[] = [];
  let sealed: { objects: Record<string, PublishedObject>; changed: string[]; removed: string[] } | undefined;
  // Keys in `objects`, and how many of them `previous` has.
  let count = 0;
  let fromPrevious = 0;
  const record = (key: string, obj: PublishedObject, inPrevious: boolean) => {
    if (sealed) throw new Error(`${key} was published after the publish was sealed`);
    const had = own(objects, key);
    if (had === undefined) {
      count++;
      if (inPrevious) fromPrevious++;
    }
    total += obj.size - (had?.size ?? 0);
    objects[key] = obj;
    checkOutput(total, limits);
  };
  return {
    async emit(key, data, known) {
      const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
      const hash = known ?? (typeof data === 'string' && data.length >= LARGE_TEXT ? sha256OfRecentText(data) : sha256(data));
      const prev = own(previous, key);
      // The previous entry itself when the bytes are the same: the next manifest compares it by identity.
      if (prev?.hash === hash && prev.size === size) {
        record(key, prev, true);
        return;
      }
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      record(key, { hash, size }, prev !== undefined);
      changed.push(key);
      uploaded++;
      while (pending.size >= MAX_PENDING) await new Promise<void>((resolve) => waiting.push(resolve));
      if (failure) throw failure.error;
      const p = store.put(key, bytes, { contentType: contentTypeFor(key), cacheControl: cacheControlFor(key) }).catch((error: unknown) => {
        failure ??= { error };
      }).finally(() => {
        pending.delete(p);
        waiting.shift()?.();
      });
      pending.add(p);
    },
    keep(key) {
      const prev = own(previous, key);
      if (prev === undefined) return false;
      record(key, prev, true);
      return true;
    },
    has: (key) => Object.hasOwn(objects, key),
    seal() {
      if (!sealed) {
        const all = fromPrevious === (sizes.get(previous) ?? Object.keys(previous).length);
        const removed = all ? [] : Object.keys(previous).filter((k) => !Object.hasOwn(objects, k));
        sealed = { objects, changed: [...changed, ...removed], removed };
        sizes.set(objects, count);
      }
      return { objects: sealed.objects, changed: sealed.changed };
    },
    async finish() {
      this.seal();
      await Promise.all(pending);
      if (failure) throw failure.error;
      const { removed } = sealed!;
      if (removed.length > 0) await store.delete(removed);
      return { uploaded, deleted: removed.length, objects, changed: sealed!.changed };
    },
  };
}

/**
 * Pages' own access keys (`groups`, `public`) by blob id, kept in the builder's state so that a
 * build in a fresh process (`build-site`, `ci-deploy`, a new container) reads only the pages whose
 * content changed to learn who may read them. Without it, every build read every page of the
 * repository before anything else: 6.5 s of CPU for a 10,000-page repository packed by Git
 * (builder docs/benchmarks.md, "Against the targets"), on a one-page edit too.
 *
 * The entries are keyed by content, so an index written by any build (a failed one, another
 * branch's) is right for every build; a missing or unreadable one only means pages are read.
 */
import { decodeJson, encodeJson, GZIP_JSON } from '../cache/gzip-json.ts';
import { STATE_PREFIX } from '../state/manifest.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { AccessKeys } from './access-keys.ts';

/** Where the index lives in the site's state. */
export const ACCESS_INDEX_KEY = `${STATE_PREFIX}page-access.json.gz`;

interface Stored { v: 1; keys: Record<string, AccessKeys> }

/** The index of one build: what the last one stored, plus the pages this one read. */
export class AccessIndex {
  private readonly read = new Map<string, AccessKeys>();
  private readonly stored: Map<string, AccessKeys>;

  private constructor(stored: Map<string, AccessKeys>) {
    this.stored = stored;
  }

  /** The index stored in `store`, or an empty one. */
  static async load(store: ObjectStore): Promise<AccessIndex> {
    const stored = await decodeJson<Stored>(await store.get(ACCESS_INDEX_KEY).catch(() => undefined)).catch(() => undefined);
    const keys = stored?.v === 1 && stored.keys && typeof stored.keys === 'object' ? Object.entries(stored.keys) : [];
    return new AccessIndex(new Map(keys));
  }

  get(blob: string): AccessKeys | undefined {
    return this.read.get(blob) ?? this.stored.get(blob);
  }

  /** Records the keys of a page this build read. */
  set(blob: string, keys: AccessKeys): void {
    this.read.set(blob, keys);
  }

  /** Records keys learnt elsewhere (the process's memory) when the index lacks them. */
  learn(blob: string, keys: AccessKeys): void {
    if (!this.stored.has(blob) && !this.read.has(blob)) this.read.set(blob, keys);
  }

  /**
   * Stores the entries of `blobs` (the commit's pages) when this build read a page the index did not
   * hold or the commit dropped some it did, so the index follows the repository's pages.
   */
  async save(store: ObjectStore, blobs: ReadonlySet<string>): Promise<void> {
    const stale = [...this.stored.keys()].some((blob) => !blobs.has(blob));
    if (!this.read.size && !stale) return;
    const keys: Record<string, AccessKeys> = {};
    for (const blob of [...blobs].sort()) {
      const entry = this.get(blob);
      if (entry) keys[blob] = entry;
    }
    await store.put(ACCESS_INDEX_KEY, await encodeJson({ v: 1, keys } satisfies Stored), { contentType: GZIP_JSON, cacheControl: 'no-store' });
  }
}

import { createHash } from 'node:crypto';
import type { ObjectStore } from '../store/object-store.ts';
import type { CompiledPage } from '../types.ts';

/**
 * A cached page: the compile result plus the blob ids of the repository files it imported
 * (snippets), so an entry is only reused while those files are unchanged too.
 */
export interface CacheEntry {
  page: CompiledPage;
  /** Repository path → blob id of every file the page imported when it was compiled. */
  deps: Record<string, string>;
}

/**
 * The cache key of one page: sha256 of its blob id, the compiler and template versions and the
 * content root (which shapes its URL). The source path is not part of it, so a renamed file with
 * the same bytes is a hit; the URL is re-derived from the new path by the caller.
 */
export function pageCacheKey(blobOid: string, compilerVersion: string, templateVersion: string, contentRoot: string): string {
  return createHash('sha256').update([blobOid, compilerVersion, templateVersion, contentRoot].join('\n')).digest('hex');
}

/**
 * Per-page compile results in object storage (`<key>.json` under the store it is given,
 * normally the site's `_folio/cache/pages/`), so a builder with an empty disk is as
 * incremental as a warm one.
 */
export interface PageCache {
  /**
   * The entry for `key`, or `undefined` when absent, unreadable, or when a dependency's blob
   * changed. An entry with imports made for another source path is a miss too: relative
   * imports resolve differently from another folder.
   */
  get(key: string, sourcePath: string, currentBlobs: ReadonlyMap<string, string>): Promise<CacheEntry | undefined>;
  put(key: string, entry: CacheEntry): Promise<void>;
}

/** A page cache over `store`. */
export function createPageCache(store: ObjectStore): PageCache {
  return {
    async get(key, sourcePath, currentBlobs) {
      const bytes = await store.get(`${key}.json`);
      if (bytes === undefined) return undefined;
      let entry: CacheEntry;
      try {
        entry = JSON.parse(Buffer.from(bytes).toString('utf8')) as CacheEntry;
      } catch {
        return undefined;
      }
      const deps = Object.entries(entry.deps ?? {});
      if (deps.length > 0 && entry.page.sourcePath !== sourcePath) return undefined;
      for (const [dep, oid] of deps) if (currentBlobs.get(dep) !== oid) return undefined;
      return entry;
    },
    put: (key, entry) => store.put(`${key}.json`, Buffer.from(JSON.stringify(entry)), { contentType: 'application/json', cacheControl: 'no-store' }),
  };
}

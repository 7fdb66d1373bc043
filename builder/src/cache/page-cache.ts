import type { ObjectStore } from '../store/object-store.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import { depsHold } from './page-deps.ts';
import { isLimitFailure } from '../sandbox/sandbox-pool.ts';
import { decodeJson, encodeJson, GZIP_JSON } from './gzip-json.ts';
import { sha256Again } from '../sha256.ts';

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
 * A cached compile failure: what the page's blob and its imports gave, reused (reported again,
 * not compiled) until one of them changes. `deps` also lists imports of files that did not
 * exist (`MISSING_BLOB`), so adding the missing snippet compiles the page again.
 */
export interface FailureEntry {
  failure: PageFailure;
  deps: Record<string, string>;
}

/**
 * Whether a failure follows from the page's source alone (and may be cached), not from a limit of
 * its sandbox (time, memory, an ended process), which depends on the machine's load as much as on
 * the page: such a page is compiled again by the next build.
 */
export function isCacheableFailure(failure: PageFailure): boolean {
  return !isLimitFailure(failure);
}

/**
 * The cache key of one page: sha256 of its blob id, the compiler and template versions and the
 * content root (which shapes its URL). The source path is not part of it, so a renamed file with
 * the same bytes is a hit; the URL is re-derived from the new path by the caller.
 */
export function pageCacheKey(blobOid: string, compilerVersion: string, templateVersion: string, contentRoot: string): string {
  return sha256Again([blobOid, compilerVersion, templateVersion, contentRoot].join('\n'));
}

/**
 * The cache key of a copy of a page (the same bytes, so the same `pageCacheKey`) whose imports
 * name other files from its folder than the copy stored under that key does (`./part.mdx` in
 * each language's folder): each such copy keeps its own entry, so neither compiles again on
 * every build because the other took the key.
 */
export function copyCacheKey(key: string, sourcePath: string): string {
  return sha256Again(`${key}\n${sourcePath}`);
}

/**
 * Per-page compile results in object storage (gzipped JSON, `<key>.json.gz` under the store it is given,
 * normally the site's `_folio/cache/pages/`), so a builder with an empty disk is as
 * incremental as a warm one. Failures have their own objects (`<key>.failed.json.gz`): the same
 * blob may be a good page with one version of a snippet and a failure with another, and the
 * good one stays published meanwhile.
 */
export interface PageCache {
  /**
   * The entry for `key`, or `undefined` when absent, unreadable, or when a dependency's blob
   * changed. An entry with imports made for another source path is a miss too: relative
   * imports resolve differently from another folder. `sourcePath` undefined: the entry answers
   * at whatever path it was made for (the caller checked the imports already).
   */
  get(key: string, sourcePath: string | undefined, currentBlobs: ReadonlyMap<string, string>): Promise<CacheEntry | undefined>;
  put(key: string, entry: CacheEntry): Promise<void>;
  /**
   * The failure cached for `key` at `sourcePath`, or `undefined` when absent, unreadable,
   * recorded for another path (a message may name it) or when an import changed, appeared or
   * disappeared.
   */
  getFailure(key: string, sourcePath: string, currentBlobs: ReadonlyMap<string, string>): Promise<FailureEntry | undefined>;
  putFailure(key: string, entry: FailureEntry): Promise<void>;
}

/** A page cache over `store`. */
export function createPageCache(store: ObjectStore): PageCache {
  const read = async <T>(name: string): Promise<T | undefined> => decodeJson<T>(await store.get(name));
  const write = async (name: string, value: unknown) => store.put(name, await encodeJson(value), { contentType: GZIP_JSON, cacheControl: 'no-store' });
  return {
    async get(key, sourcePath, currentBlobs) {
      const entry = await read<CacheEntry>(`${key}.json.gz`);
      const path = sourcePath ?? entry?.page.sourcePath;
      return entry && depsHold(entry.deps ?? {}, entry.page.sourcePath, path!, currentBlobs) ? entry : undefined;
    },
    put: (key, entry) => write(`${key}.json.gz`, entry),
    async getFailure(key, sourcePath, currentBlobs) {
      const entry = await read<FailureEntry>(`${key}.failed.json.gz`);
      if (!entry || entry.failure?.sourcePath !== sourcePath) return undefined;
      return depsHold(entry.deps ?? {}, sourcePath, sourcePath, currentBlobs) ? entry : undefined;
    },
    putFailure: (key, entry) => write(`${key}.failed.json.gz`, entry),
  };
}

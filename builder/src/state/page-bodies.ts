import { appError } from '../errors.ts';
import type { PageCache } from '../cache/page-cache.ts';
import { relocate, type PageSummary } from './page-summaries.ts';
import type { CompiledPage } from '../types.ts';
import { PublishedMemory } from '../outputs/published-memory.ts';

/**
 * Characters of page text kept in memory at most by default: about 3,500 typical pages (so a
 * 1,000-page site never reads an entry twice), 40-80 MB of strings.
 */
export const DEFAULT_BODY_BUDGET = 40_000_000;

/** A published page of this build: where it is, which cache entry holds it, what it says. */
export interface PageRecord { cacheKey: string; summary: PageSummary }

/**
 * Full compiled pages on demand. Pages compiled (or read) by this build stay in memory while
 * their text fits the budget; the others are read back from the page cache when a shell, a
 * search shard or the pages report needs them. This bounds memory on large sites (10,000 bodies
 * of highlighted code do not fit comfortably) while small sites never read an entry twice.
 */
export interface PageBodies {
  /** Keeps `page` (the cache entry under `cacheKey`, made with imports `deps`) in memory, within the memory's budget. */
  remember(cacheKey: string, page: CompiledPage, deps: Record<string, string>): void;
  /** The full page of a record, at the record's path. */
  load(record: PageRecord, contentRoot: string): Promise<CompiledPage>;
}

/**
 * Compiled pages held in memory up to a budget of page text; the least recently used go first.
 * One per build by default; a long-lived builder keeps one across builds, so the next edit of a
 * site finds its pages (for shells and search shards) without reading the cache. Pages are held
 * by cache key (blob, compiler and template versions) and the blob ids of the files they
 * imported, which together determine a page's content: across builds and sites, the same key
 * with another snippet version is another page.
 */
export class PageMemory {
  /** The large files the last build published (`llms-full.txt`), for the next one to slice. */
  readonly files = new PublishedMemory();
  private readonly pages = new Map<string, { page: CompiledPage; size: number }>();
  private used = 0;
  private readonly budget: number;
  constructor(budget = DEFAULT_BODY_BUDGET) {
    this.budget = budget;
  }
  get(cacheKey: string, deps: Record<string, string>): CompiledPage | undefined {
    const key = memoryKey(cacheKey, deps);
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    this.pages.delete(key);
    this.pages.set(key, entry); // most recently used last
    return entry.page;
  }
  set(cacheKey: string, deps: Record<string, string>, page: CompiledPage): void {
    const key = memoryKey(cacheKey, deps);
    if (this.pages.has(key)) return;
    const size = page.bodyHtml.length + page.markdown.length + page.searchText.length;
    if (size > this.budget) return;
    for (const [key, entry] of this.pages) {
      if (this.used + size <= this.budget) break;
      this.pages.delete(key);
      this.used -= entry.size;
    }
    this.pages.set(key, { page, size });
    this.used += size;
  }
}

function memoryKey(cacheKey: string, deps: Record<string, string>): string {
  const entries = Object.entries(deps);
  return entries.length === 0 ? cacheKey : `${cacheKey} ${JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
}

/** Page bodies over `cache`, holding pages in `memory` (default: a new one for this build). */
export function createPageBodies(cache: PageCache, memory = new PageMemory()): PageBodies {
  return {
    remember(cacheKey, page, deps) {
      memory.set(cacheKey, deps, page);
    },
    async load({ cacheKey, summary }, contentRoot) {
      let page = memory.get(cacheKey, summary.deps);
      if (!page) {
        // The summary's deps: the entry is the one it was made from, whatever changed since. Its
        // path may be another copy's (the plan found this copy's imports the same: depsHoldAt).
        const entry = await cache.get(cacheKey, undefined, new Map(Object.entries(summary.deps)));
        if (!entry) throw appError('cache_missing', `page cache entry ${cacheKey} of ${summary.sourcePath} is missing or unreadable`);
        page = entry.page;
        memory.set(cacheKey, summary.deps, page);
      }
      return relocate(page, summary.sourcePath, contentRoot);
    },
  };
}

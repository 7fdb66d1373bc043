import type { FailureEntry } from '../cache/page-cache.ts';
import { depsHold } from '../cache/page-deps.ts';
import { urlPathFor } from '../compile/index.ts';
import { searchHash } from '../outputs/search-shards.ts';
import { classCandidates } from '../outputs/tailwind-css.ts';
import { detachedStrings } from '../detached-strings.ts';
import type { ObjectStore } from '../store/object-store.ts';
import { decodeJson, gzipBytes, GZIP_JSON } from '../cache/gzip-json.ts';
import { CACHE_PREFIX, STATE_PREFIX } from './manifest.ts';
import { deleteUnreferenced, readBucketedMap, writeBucketedMap, type StoredMap } from '../cache/bucketed-map.ts';
import type { CompiledPage } from '../types.ts';
import { sha256 } from '../sha256.ts';

/** Key of the page summaries in the site's store (builder state, never served). */
export const SUMMARIES_KEY = `${STATE_PREFIX}summaries.json.gz`;

/**
 * What the sidebar and the site-wide outputs (exports, feeds, sitemap, search planning) read of
 * a page: everything but its body HTML, table of contents, search text and Markdown (which
 * `llms-full.txt` takes from the last published file: outputs/llms-full-recall.ts, and a page's
 * own export from its cache entry when it is made again). One object holds the
 * summaries of every published page, so a build reads one object instead of one cache entry per
 * page, and bodies are read only for the shells and search shards that must be rebuilt.
 */
export type PageSummary = Omit<CompiledPage, 'bodyHtml' | 'toc' | 'searchText' | 'frontmatter' | 'markdown'> & {
  /** sha256 of the page's search document (see `searchHash`). */
  searchHash: string;
  /** Repository path → blob id of every file the page imported, as in its cache entry. */
  deps: Record<string, string>;
  /** Tokens of the `class` attributes of its body: the site's Tailwind utilities are generated from them. */
  classes?: string[];
  /** Every `id` its body renders (headings, updates, components): what `#fragment` links may name. */
  anchors?: string[];
};

/** A page that failed to compile, by source path: the failure and the cache key of the source that gave it. */
export interface FailureSummary extends FailureEntry {
  cacheKey: string;
}

/**
 * Content of `_folio/cache/summaries.json.gz`: the buckets of page cache key → summary
 * (cache/bucketed-map.ts, under `SUMMARY_BUCKETS`, where previews read production's as they read
 * its page cache), and source path → failure for the pages that failed (absent when none did).
 * Version 2 held the summaries inline: still read, so a site's first build after the change
 * reuses them.
 */
type SummariesFile =
  | { version: 3; pages: StoredMap; failures?: Record<string, FailureSummary> }
  | { version: 2; pages: Record<string, PageSummary>; failures?: Record<string, FailureSummary> };

/** Prefix of the summaries' buckets: beside the page cache, keyed by content like it. */
const SUMMARY_BUCKETS = `${CACHE_PREFIX}summaries/`;

/** What `readSummaries` found. */
export interface StoredSummaries {
  /** Page cache key → summary (frozen: shared with the process's memory of the buckets, and the map with the next builds). */
  pages: ReadonlyMap<string, PageSummary>;
  /** Source path → the failure the last publish reported for it. */
  failures: Map<string, FailureSummary>;
  /** False when the object is missing or unreadable (the page cache must answer instead). */
  found: boolean;
  /** How the summaries were stored: the next write keeps unchanged buckets and deletes the others. */
  stored?: StoredMap;
}

/** The summary of a compiled page. */
export function summarize(page: CompiledPage, deps: Record<string, string>): PageSummary {
  const { bodyHtml: _body, toc: _toc, searchText: _text, frontmatter: _fm, markdown: _markdown, ...rest } = page;
  // Copied: as slices of the body, they would keep it in memory for as long as the summary.
  const classes = detachedStrings(classCandidates(page.bodyHtml));
  const anchors = detachedStrings(elementIds(page.bodyHtml));
  return { ...rest, searchHash: searchHash(page), deps, ...(classes.length ? { classes } : {}), ...(anchors.length ? { anchors } : {}) };
}

/** The `id` attributes of rendered HTML, entities decoded, sorted and unique. */
export function elementIds(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sid=(?:"([^"]*)"|'([^']*)')/g)) {
    const id = (m[1] ?? m[2]).replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
    if (id) out.add(id);
  }
  return [...out].sort();
}

/**
 * Whether a summary made for `key` may serve `sourcePath` now: every imported file still has
 * the recorded blob, and a page with imports is only reused at its own path (relative imports
 * resolve from its folder). The same rule as the page cache's.
 */
export function summaryHolds(summary: PageSummary, sourcePath: string, blobs: ReadonlyMap<string, string>): boolean {
  return depsHold(summary.deps, summary.sourcePath, sourcePath, blobs);
}

/** Whether the failure recorded for a path still answers for the source with cache key `key`, given today's blobs. */
export function failureHolds(failure: FailureSummary, key: string, sourcePath: string, blobs: ReadonlyMap<string, string>): boolean {
  return failure.cacheKey === key && depsHold(failure.deps, sourcePath, sourcePath, blobs);
}

/** A page (or summary) found under another path (a rename with the same bytes): re-derive its location. */
export function relocate<T extends { sourcePath: string; urlPath: string }>(page: T, sourcePath: string, contentRoot: string): T {
  return page.sourcePath === sourcePath ? page : { ...page, sourcePath, urlPath: urlPathFor(sourcePath, contentRoot) };
}

/** The summaries and failures of the last publish; empty (and not `found`) when absent or unreadable. */
export async function readSummaries(store: ObjectStore): Promise<StoredSummaries> {
  const none: StoredSummaries = { pages: new Map(), failures: new Map(), found: false };
  const file = await decodeJson<SummariesFile>(await store.get(SUMMARIES_KEY));
  // Version 1 held each page's Markdown too: read as not found, so the next build takes the pages
  // from the page cache once and writes the current version.
  if (file?.version === 2 && typeof file.pages === 'object' && file.pages !== null && !Array.isArray(file.pages)) {
    return { pages: new Map(Object.entries(file.pages)), failures: new Map(Object.entries(file.failures ?? {})), found: true };
  }
  if (file?.version !== 3 || !Array.isArray(file.pages)) return none;
  const pages = await readBucketedMap<PageSummary>(store, file.pages);
  if (!pages) return none;
  return { pages: writtenAs.get(pages) ?? new Map(Object.entries(pages)), failures: new Map(Object.entries(file.failures ?? {})), found: true, stored: file.pages };
}

/**
 * The map each summaries record was written from, by that record: a long-lived builder reads back
 * the record its last build wrote (bucketed-map.ts remembers it), and takes that build's map
 * instead of making one of 10,000 entries again. Shared between builds: read only.
 */
const writtenAs = new WeakMap<object, ReadonlyMap<string, PageSummary>>();

/**
 * Writes the summaries: the buckets that changed since `previous`, then (when it changed) the
 * object listing them, then the deletion of the buckets it no longer lists. Returns the sha256
 * of that object, for the manifest (`summariesHash`).
 */
export async function writeSummaries(
  store: ObjectStore, pages: ReadonlyMap<string, PageSummary>, failures: ReadonlyMap<string, FailureSummary>,
  previous?: { stored?: StoredMap; hash?: string },
): Promise<string> {
  const record = Object.fromEntries(pages);
  const stored = await writeBucketedMap(store, SUMMARY_BUCKETS, record, previous?.stored);
  writtenAs.set(record, pages);
  const file: SummariesFile = { version: 3, pages: stored };
  if (failures.size > 0) file.failures = Object.fromEntries([...failures.keys()].sort().map((p) => [p, failures.get(p)!]));
  const bytes = Buffer.from(JSON.stringify(file));
  const hash = sha256(bytes);
  if (hash !== previous?.hash) await store.put(SUMMARIES_KEY, await gzipBytes(bytes), { contentType: GZIP_JSON, cacheControl: 'no-store' });
  await deleteUnreferenced(store, [previous?.stored], [stored]);
  return hash;
}

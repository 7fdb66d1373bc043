/**
 * Unchanged pages' Markdown for `llms-full.txt`, taken from the file the last build published.
 *
 * `llms-full.txt` holds every page's Markdown, so making it again needs all of them. Keeping them
 * in the page summaries made those summaries four times their size, and reading and rewriting them
 * on every build grew with the site. Instead the manifest records, for each published
 * `llms-full.txt`, where each page's Markdown lies in it (an index by content key: the page's cache
 * key and the blobs of its imports, which together fix its Markdown). The next build reads the
 * published file once and slices the unchanged pages out of it; only pages it does not find there
 * (changed, new, or every page when the file's bytes are not the ones recorded) are loaded from
 * the page cache, most of them already in memory because this build compiled them.
 */
import { createHash } from 'node:crypto';
import type { PageRecord } from '../state/page-bodies.ts';
import type { PageSummary } from '../state/page-summaries.ts';
import type { LlmsFullIndex } from '../state/manifest.ts';
import type { PublishedObject } from '../publish.ts';
import type { PublishedMemory } from './published-memory.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { CompiledPage } from '../types.ts';
import type { LlmsSegment } from './llms-txt.ts';
import { sha256 } from '../sha256.ts';

/**
 * What fixes a page's Markdown: its cache key (blob, compiler and template versions) and the
 * blobs of the files it imported. 96 bits of a hash, so the index stays small at 10,000 pages.
 */
export function contentKey(record: PageRecord): string {
  const known = contentKeys.get(record.summary);
  if (known?.cacheKey === record.cacheKey) return known.key;
  const deps = Object.entries(record.summary.deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = createHash('sha256').update(record.cacheKey).update(JSON.stringify(deps)).digest('base64url').slice(0, 16);
  contentKeys.set(record.summary, { cacheKey: record.cacheKey, key });
  return key;
}

/**
 * By summary (with the cache key it was made for), not by record: a long-lived builder's next
 * build makes new records but gets the same frozen summaries for unchanged pages, so an edit
 * hashes its own page's content key, not 10,000 of them.
 */
const contentKeys = new WeakMap<PageSummary, { cacheKey: string; key: string }>();

/** What {@link recallMarkdown} needs. */
export interface RecallOptions {
  /** Every page of this build. */
  records: readonly PageRecord[];
  /** Content key → trimmed Markdown of the pages this build compiled (taken first; text or its UTF-8 bytes). */
  known?: ReadonlyMap<string, string | Uint8Array>;
  /** The previous manifest's index, and its published objects (to check the file's bytes). */
  index?: LlmsFullIndex;
  objects: Readonly<Record<string, PublishedObject>>;
  store: ObjectStore;
  /** Files a long-lived builder remembers having published, by sha256: read from there first. */
  memory?: PublishedMemory;
  /** The full page of a record (memory, else the page cache). */
  load(record: PageRecord): Promise<CompiledPage>;
}

/**
 * Content key → the page's Markdown, trimmed (as `llms-full.txt` holds it), for every record:
 * from `known` (pages compiled by this build), as bytes of the published `llms-full.txt` files
 * where the index finds it (never decoded: see `llmsFullBytes`), else from the page.
 */
export async function recallMarkdown(opts: RecallOptions): Promise<Map<string, string | Uint8Array>> {
  const wanted = new Map(opts.records.map((record) => [contentKey(record), record]));
  const found = new Map<string, string | Uint8Array>();
  for (const k of wanted.keys()) {
    const text = opts.known?.get(k);
    if (text !== undefined) found.set(k, text);
  }
  for (const [key, segments] of Object.entries(opts.index ?? {})) {
    if (!segments.some(([k]) => wanted.has(k) && !found.has(k))) continue;
    const published = opts.objects[key];
    const bytes = (published && opts.memory?.get(published.hash)) ?? await publishedBytes(opts.store, key, published, opts.memory);
    if (bytes === undefined) continue;
    for (const [k, start, length] of segments) {
      if (wanted.has(k) && !found.has(k) && start >= 0 && start + length <= bytes.byteLength) found.set(k, bytes.subarray(start, start + length));
    }
  }
  for (const [k, record] of wanted) {
    if (!found.has(k)) found.set(k, (await opts.load(record)).markdown.trim());
  }
  return found;
}

/** The index of this build's `llms-full.txt` files, from the segments `siteWideExports` reported. */
export function llmsFullIndex(segments: ReadonlyMap<string, readonly LlmsSegment[]>, byUrl: ReadonlyMap<string, PageRecord>): LlmsFullIndex {
  const index: LlmsFullIndex = {};
  for (const [key, list] of segments) {
    index[key] = list.flatMap(({ page, start, length }) => {
      // A page shown by fallback holds the Markdown of the page it links to.
      const record = byUrl.get(page.linkPath ?? page.urlPath);
      return record ? [[contentKey(record), start, length] as [string, number, number]] : [];
    });
  }
  return index;
}

/**
 * The bytes of a published object when they are the ones recorded; otherwise undefined. Checked
 * through `memory` when given, which then remembers them (see `PublishedMemory.adopt`).
 */
async function publishedBytes(store: ObjectStore, key: string, published: PublishedObject | undefined, memory?: PublishedMemory): Promise<Uint8Array | undefined> {
  if (!published) return undefined;
  const bytes = await store.get(key).catch(() => undefined);
  if (!bytes || bytes.byteLength !== published.size) return undefined;
  const same = memory ? memory.adopt(key, bytes, published.hash) : sha256(bytes) === published.hash;
  return same ? bytes : undefined;
}

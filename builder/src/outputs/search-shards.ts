/**
 * Sharding of the search index. Pagefind takes ~10 s for 5,000 pages, far over the one-page-edit
 * budget (≤ 1 s at 1,000 pages, ≤ 3 s at 10,000), so pages are hashed by path into shards of
 * ~200-400 pages, each its own Pagefind bundle under `_pagefind/<count>-<index>/`. A one-page
 * edit changes one shard's fingerprint, and only that shard is re-indexed. The browser loads
 * the first bundle and merges the others (`<meta name="folio-search" content="base,base,…">`).
 *
 * The shard count is a power of two so the page-to-shard mapping only changes when a site
 * doubles or halves; the count is part of the shard name, so bundles of different counts never
 * mix.
 */
import { createHash } from 'node:crypto';
import { dropTitleHeading } from '@folio/site-template/node/title-heading.ts';
import type { CompiledPage } from '../types.ts';

/** The page fields the search index reads (`frontmatter` for its `boost`). */
export type SearchPage = Pick<CompiledPage, 'urlPath' | 'title' | 'bodyHtml'> & Partial<Pick<CompiledPage, 'frontmatter'>>;

/** A page's own `boost` (frontmatter, Mintlify's), which wins over its navigation group's; capped at Pagefind's 10. */
function ownBoost(page: SearchPage): number | undefined {
  const boost = page.frontmatter?.boost;
  return typeof boost === 'number' && Number.isFinite(boost) && boost >= 0 ? Math.min(10, boost) : undefined;
}

/** Mintlify's `noindex: true` (and `hidden: true`, unless the site indexes hidden pages) leave a page out of search. */
function unindexed(page: SearchPage, scopes: SearchFilters | undefined): boolean {
  return page.frontmatter?.noindex === true || (page.frontmatter?.hidden === true && !scopes?.indexHidden);
}

/** A page's frontmatter `keywords` (a list or a comma-separated string): searched, not shown on the page. */
function keywordsOf(page: SearchPage): string {
  const raw = page.frontmatter?.keywords;
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : [];
  return list.filter((k): k is string => typeof k === 'string' && k.trim() !== '').map((k) => escapeHtml(k.trim())).join(' ');
}

/**
 * Pagefind filters and metadata of a page by URL (its languages and versions on sites that have
 * them, see `nav/dimensions.ts`), so that search lists only the reader's.
 */
export interface SearchFilters {
  filters(urlPath: string): Record<string, string[]>;
  meta(urlPath: string): Record<string, string>;
  /** Pagefind weight of the page's body (a navigation group's `boost`); default 1. */
  weight?(urlPath: string): number | undefined;
  /** Whether the page is left out of search (`searchable: false`, hidden divisions). */
  excluded?(urlPath: string): boolean;
  /** docs.json `seo.indexing: all`: `hidden: true` pages and hidden divisions are searched too. */
  indexHidden?: boolean;
}

/**
 * The hidden elements carrying a page's filters and metadata (values in an attribute: no text to
 * index), and its boost as a `boost` meta; part of every shard fingerprint, so a change of
 * boost or of searchability indexes the page again.
 */
export function scopeTags(urlPath: string, scopes: SearchFilters | undefined): string {
  if (!scopes) return '';
  const tag = (kind: 'filter' | 'meta', name: string, value: string) => `<span data-pagefind-${kind}="${escapeHtml(name)}[data-value]" data-value="${escapeHtml(value)}"></span>`;
  const weight = scopes.weight?.(urlPath);
  return Object.entries(scopes.filters(urlPath)).flatMap(([name, values]) => values.map((v) => tag('filter', name, v))).join('')
    + Object.entries(scopes.meta(urlPath)).map(([name, value]) => tag('meta', name, value)).join('')
    + (weight !== undefined ? tag('meta', 'boost', String(weight)) : '')
    + (scopes.excluded?.(urlPath) ? '<span data-folio-unsearchable></span>' : '')
    // Part of the fingerprint: turning `seo.indexing: all` on or off indexes the pages again.
    + (scopes.indexHidden ? '<span data-folio-index-hidden></span>' : '');
}


/**
 * A page known only by the hash of its search document (`searchHash`): enough to plan shards and
 * fingerprint them without holding every page body in memory. Bodies are loaded only for the
 * shards that must be re-indexed (`SearchIndexOptions.load`).
 */
export interface SearchEntry { urlPath: string; searchHash: string }

/** sha256 of a page's search document: what a shard fingerprint is made of. */
export function searchHash(page: SearchPage): string {
  return createHash('sha256').update(searchDocument(page)).digest('hex');
}

/** Most pages per shard before the shard count doubles. */
export const MAX_PAGES_PER_SHARD = 400;

/** Smallest power of two giving at most `perShard` (default 400) pages per shard on average. */
export function shardCount(pageCount: number, perShard = MAX_PAGES_PER_SHARD): number {
  let count = 1;
  while (pageCount / count > perShard) count *= 2;
  return count;
}

/** 32-bit FNV-1a of the UTF-16 code units: stable across runs, machines and Node versions. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard index of a page. */
export function shardOf(urlPath: string, count: number): number {
  return fnv1a(urlPath) % count;
}

/** Site path of a shard's bundle, e.g. `/_pagefind/4-1/`. */
export function shardBase(name: string): string {
  return `/_pagefind/${name}/`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * A code block as compile/code-block.ts writes it (title and raw code are escaped there, so they
 * hold no `<`). In the search document it becomes its title and raw code: the highlighting
 * spans, badge and buttons were about two thirds of a page's bytes and of Pagefind's time.
 */
const CODE_FIGURE = /<figure class="code-block"[^>]*>(?:<figcaption class="code-title">([^<]*)<\/figcaption>)?[\s\S]*?<template class="code-raw">([^<]*)<\/template>[\s\S]*?<\/figure>/g;
/** The `#` link after every heading: no words to find. */
const HEADING_ANCHOR = /<a class="heading-anchor"[^>]*>#<\/a>/g;
/**
 * End of a table cell. Pagefind joins inline text as written, and compiled tables have no space
 * between cells, so excerpts read "MethodPathPurpose"; a space after each cell keeps words apart.
 */
const CELL_END = /<\/(th|td)>/g;

/**
 * The minimal document Pagefind indexes for a page: its title as `h1` (and the result title via
 * `data-pagefind-meta`) and its body, without the shell (faster, and no navigation text in
 * results), code blocks as plain code. A leading body `<h1>` repeating the title is dropped, as
 * the page shows it (else excerpts read "Glossary. Glossary."). Agents-only content is excluded
 * at indexing time (see `pagefind-shard.ts`).
 */
export function searchDocument(page: SearchPage, scopes?: SearchFilters): string {
  const title = escapeHtml(page.title);
  const body = dropTitleHeading(page.bodyHtml, page.title)
    .replace(CODE_FIGURE, (_, caption: string | undefined, code: string) => `${caption ? `<p>${caption}</p>` : ''}<pre>${code}</pre>`)
    .replace(HEADING_ANCHOR, '')
    .replace(CELL_END, '</$1> ');
  const tags = scopeTags(page.urlPath, scopes);
  const weight = ownBoost(page) ?? scopes?.weight?.(page.urlPath);
  const keywords = keywordsOf(page);
  const searched = keywords ? `${body}<p>${keywords}</p>` : body;
  const content = `<h1 data-pagefind-meta="title">${title}</h1>${weight !== undefined ? `<div data-pagefind-weight="${weight}">${searched}</div>` : searched}`;
  // A page left out of search keeps an empty body: a shard of such pages only would otherwise
  // have no data-pagefind-body at all, and Pagefind would index every page of it whole.
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main data-pagefind-body>${tags}${scopes?.excluded?.(page.urlPath) || unindexed(page, scopes) ? '' : content}</main></body></html>`;
}

/** One planned shard: its pages (by path) and a fingerprint of everything indexed from them. */
export interface ShardPlan<T extends SearchPage | SearchEntry = SearchPage> { name: string; pages: T[]; fingerprint: string }

/**
 * Splits pages into shards (`perShard` as in {@link shardCount}). `basePath` is part of the
 * fingerprint since result URLs carry it.
 */
export function planShards<T extends SearchPage | SearchEntry>(pages: readonly T[], basePath = '', perShard = MAX_PAGES_PER_SHARD, filters?: SearchFilters): ShardPlan<T>[] {
  const count = shardCount(pages.length, perShard);
  const buckets: T[][] = Array.from({ length: count }, () => []);
  for (const page of pages) buckets[shardOf(page.urlPath, count)].push(page);
  return buckets.map((bucket, index) => {
    bucket.sort((a, b) => (a.urlPath < b.urlPath ? -1 : a.urlPath > b.urlPath ? 1 : 0));
    // Hashed in one call: the same bytes as one update per field, without 60,000 calls into the
    // hash at 10,000 pages (every build plans twice).
    const fields: string[] = [basePath];
    for (const page of bucket) {
      fields.push(page.urlPath, 'searchHash' in page ? page.searchHash : searchHash(page));
      // A page moved to another version or language by a docs.json change is indexed again.
      if (filters) fields.push(scopeTags(page.urlPath, filters));
    }
    fields.push('');
    return { name: `${count}-${index}`, pages: bucket, fingerprint: createHash('sha256').update(fields.join('\0')).digest('hex') };
  });
}

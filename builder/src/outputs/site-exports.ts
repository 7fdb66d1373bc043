/**
 * Every site-wide text output except shells and search: Markdown exports, llms.txt,
 * llms-full.txt (without `hidden: true` pages), feeds, sitemap, robots.txt and the redirects manifest. Pure: cached per-page
 * results and the configuration in, files out; the pipeline uploads those whose bytes changed.
 */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import { hiddenFromIndexing } from '../config/indexing.ts';
import type { CompiledPage } from '../types.ts';
import { combinations, prefixOf, scopeKey, scopeOfUrl } from '../nav/dimensions.ts';
import type { DimensionNav } from '../nav/dimension-nav.ts';
import { llmsFullBytes, llmsTxt, type LlmsEntry, type LlmsPage, type LlmsSegment } from './llms-txt.ts';
import { markdownExport } from './markdown-exports.ts';
import { REDIRECTS_KEY, redirectsManifest } from './redirects-manifest.ts';
import { pageFeed, SITE_FEED_KEY, siteFeed } from './rss-feeds.ts';
import { feedKey, markdownKey } from './site-paths.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';
import { sameJson } from '../cache/bucketed-map.ts';

/** The page fields a page's own exports read (`hidden` only the site-wide ones: see `llmsSets`). */
export type ExportPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'markdown' | 'updates' | 'seo' | 'hidden'>;

/** The page fields the site-wide exports read: the Markdown may be trimmed bytes (see `LlmsPage`). */
export type SiteWidePage = Omit<ExportPage, 'markdown'> & Pick<LlmsPage, 'markdown'>;

/**
/**
 * Part of the inputs hash of a page's own exports (see `pageExports`): bump it whenever the
 * text of a page's Markdown export or feed changes for the same page and configuration, so a
 * build after the change rewrites them instead of keeping the published ones.
 */
export const PAGE_EXPORTS_VERSION = 'page-exports-1';

/**
 * The files of one page alone: key → text of its Markdown export (ending with one newline) and
 * of its feed. They depend only on the page and the site's name, description and URL, so a
 * build keeps those of unchanged pages without making them again.
 */
export function pageExports(page: ExportPage, site: SiteConfig): Array<[string, string]> {
  const [markdown, feed] = pageExportKeys(page.urlPath);
  return [[markdown, markdownExport(page)], [feed, pageFeed(page, site)]];
}

/** The keys `pageExports` writes for the page at `urlPath`, known without making the files. */
export function pageExportKeys(urlPath: string): [markdown: string, feed: string] {
  return [markdownKey(urlPath), feedKey(urlPath)];
}

/** What the site-wide exports read besides the pages and the configuration. */
export interface SiteWideInputs {
  /** The sidebar: sets the order of the LLM exports (reading order). */
  nav?: readonly NavItem[];
  /** Old URL path → new, for pages found moved: added to the redirects. */
  moved?: Record<string, string>;
  /**
   * Languages and versions: each combination has its own `llms.txt` and `llms-full.txt` under
   * its prefix (`fr/v2/llms.txt`), listing its pages and its fallbacks in its sidebar's order;
   * the site root's are the default language and version's.
   */
  dimensions?: DimensionNav;
  /** Where each `llms-full.txt` is written (a reused buffer in a long-lived builder); default a new one. */
  alloc?: (size: number) => Buffer;
}

/** The first page of a sidebar, in reading order. */
function firstPage(items: readonly NavItem[]): string | undefined {
  for (const item of items) {
    const path = item.kind === 'page' ? item.path : firstPage(item.items);
    if (path !== undefined) return path;
  }
  return undefined;
}

/**
 * Key → text of the files made from every page: LLM exports, site feed, sitemap, robots, redirects.
 * With `segments`, each `llms-full.txt` key → where each page's Markdown lies in it.
 */
export function siteWideExports(pages: readonly SiteWidePage[], site: SiteConfig, inputs: SiteWideInputs = {}, segments?: Map<string, LlmsSegment[]>): Map<string, string | Buffer> {
  const siteFields = [site.name, site.seo, site.siteUrl, site.basePath];
  const feedFields: FieldWalk = (each) => {
    siteFields.forEach(each);
    for (const p of pages) { each(p.urlPath); each(p.title); each(p.description); each(p.updates); }
  };
  const files = new Map<string, string | Buffer>([[SITE_FEED_KEY, madeFrom(SITE_FEED_KEY, feedFields, () => siteFeed(pages, site))]]);
  for (const [prefix, entries, order] of llmsSets(pages, inputs.nav, inputs.dimensions, site.seo?.indexing)) {
    const llmsFields: FieldWalk = (each) => {
      siteFields.forEach(each);
      each(order);
      for (const e of entries) { each(e.urlPath); each(e.title); each(e.description); each(e.linkPath); }
    };
    files.set(`${prefix}llms.txt`, madeFrom(`${prefix}llms.txt`, llmsFields, () => llmsTxt(entries, site, order)));
    const own: LlmsSegment[] = [];
    files.set(`${prefix}llms-full.txt`, llmsFullBytes(entries, site, order, own, inputs.alloc));
    segments?.set(`${prefix}llms-full.txt`, own);
  }
  const sitemapFields: FieldWalk = (each) => {
    siteFields.forEach(each);
    for (const p of pages) { each(p.urlPath); each(p.seo); each(p.hidden); }
  };
  files.set('sitemap.xml', madeFrom('sitemap.xml', sitemapFields, () => sitemapXml(pages, site)));
  files.set('robots.txt', robotsTxt(site));
  // A site without a page at `/` (its navigation starts at `docs/2025/intro`) sends `/` to its first page.
  const home = pages.some((p) => p.urlPath === '/') ? undefined : firstPage(inputs.nav ?? []) ?? pages[0]?.urlPath;
  files.set(REDIRECTS_KEY, redirectsManifest(site, inputs.moved ?? {}, home));
  return files;
}

/**
 * The last text of each site-wide file, by key, with the fields it was made from. A kept builder's
 * edit mostly changes a page's body, which the site feed, the sitemap and `llms.txt` do not read:
 * comparing the fields they read (most by identity: unchanged pages keep their summaries) costs
 * far less than making the files again (builder docs/benchmarks.md, "Site-wide files kept").
 */
const lastMade = new Map<string, { fields: readonly unknown[]; text: string }>();

/** Calls `each` with every field a file reads, in order: walked twice at most, so nothing is gathered when nothing changed. */
type FieldWalk = (each: (value: unknown) => void) => void;

function madeFrom(key: string, walk: FieldWalk, make: () => string): string {
  const last = lastMade.get(key);
  if (last) {
    // Compared as they come: an unchanged file allocates nothing, where gathering the fields
    // first cost more than the comparison itself.
    let i = 0;
    let same = true;
    walk((value) => {
      if (same && !(i < last.fields.length && sameJson(last.fields[i], value))) same = false;
      i++;
    });
    if (same && i === last.fields.length) return last.text;
  }
  const fields: unknown[] = [];
  walk((value) => fields.push(value));
  const text = make();
  lastMade.set(key, { fields, text });
  return text;
}

/**
 * The keys `siteWideExports` writes, in its order, known without the pages: the link check reads
 * them before the files are made, which is after the shells (an edited page's shell is published
 * first; at 10,000 pages `llms-full.txt` alone is 55 MB to assemble).
 */
export function siteWideKeys(dimensions?: DimensionNav): string[] {
  const prefixes = dimensions ? combinations(dimensions.dims).map((scope) => prefixOf(scope, dimensions.dims)) : [''];
  const llms = prefixes.flatMap((prefix) => [`${prefix}llms.txt`, `${prefix}llms-full.txt`]);
  return [SITE_FEED_KEY, ...llms, 'sitemap.xml', 'robots.txt', REDIRECTS_KEY];
}

/**
 * Prefix, pages and sidebar of each `llms.txt`: one for the site, or one per language and version.
 * Pages with `hidden: true` are left out (and so are their fallbacks), as Mintlify leaves them out
 * of its AI context: built and reachable by their URL and `.md` export, not listed; `seo.indexing:
 * all` lists them too.
 */
function llmsSets(all: readonly SiteWidePage[], nav: readonly NavItem[] | undefined, dimensions: DimensionNav | undefined, indexing: string | undefined): [string, LlmsEntry[], readonly NavItem[] | undefined][] {
  const pages = all.some((p) => hiddenFromIndexing(p, indexing)) ? all.filter((p) => !hiddenFromIndexing(p, indexing)) : all;
  if (!dimensions) return [['', [...pages], nav]];
  const { dims } = dimensions;
  const byUrl = new Map(pages.map((p) => [p.urlPath, p]));
  return combinations(dims).map((scope) => {
    const key = scopeKey(scope);
    const own: LlmsEntry[] = pages.filter((p) => scopeKey(scopeOfUrl(p.urlPath, dims)) === key);
    for (const f of dimensions.fallbacks.values()) {
      const source = byUrl.get(f.fromUrl);
      if (source && scopeKey(f.scope) === key) own.push({ ...source, urlPath: f.urlPath, linkPath: f.fromUrl });
    }
    return [prefixOf(scope, dims), own, dimensions.navs.get(key)];
  });
}

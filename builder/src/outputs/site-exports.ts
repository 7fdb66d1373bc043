/**
 * Every site-wide text output except shells and search: Markdown exports, llms.txt,
 * llms-full.txt, feeds, sitemap, robots.txt and the redirects manifest. Pure: cached per-page
 * results and the configuration in, files out; the pipeline uploads those whose bytes changed.
 */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../types.ts';
import { llmsFullTxt, llmsTxt } from './llms-txt.ts';
import { markdownExport } from './markdown-exports.ts';
import { REDIRECTS_KEY, redirectsManifest } from './redirects-manifest.ts';
import { pageFeed, SITE_FEED_KEY, siteFeed } from './rss-feeds.ts';
import { feedKey, markdownKey } from './site-paths.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

/** The page fields the exports read. */
export type ExportPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'markdown' | 'updates' | 'seo'>;

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

/**
 * Key → text of the files made from every page: LLM exports, site feed, sitemap, robots,
 * redirects. `moved` (old URL path → new) adds the redirects of moved pages.
 */
export function siteWideExports(pages: readonly ExportPage[], site: SiteConfig, nav?: readonly NavItem[], moved: Record<string, string> = {}): Map<string, string> {
  return new Map<string, string>([
    [SITE_FEED_KEY, siteFeed(pages, site)],
    ['llms.txt', llmsTxt(pages, site, nav)],
    ['llms-full.txt', llmsFullTxt(pages, site, nav)],
    ['sitemap.xml', sitemapXml(pages, site)],
    ['robots.txt', robotsTxt(site)],
    [REDIRECTS_KEY, redirectsManifest(site, moved)],
  ]);
}

/** Key → text of every export. `nav` sets the order of the LLM exports (reading order). */
export function siteExports(pages: readonly ExportPage[], site: SiteConfig, nav?: readonly NavItem[], moved: Record<string, string> = {}): Map<string, string> {
  // Markdown exports first, then feeds, as the keys have always been listed.
  const own = pages.map((page) => pageExports(page, site));
  const files = new Map<string, string>([...own.map(([markdown]) => markdown), ...own.map(([, feed]) => feed)]);
  for (const [key, text] of siteWideExports(pages, site, nav, moved)) files.set(key, text);
  return files;
}

/**
 * Every site-wide text output except shells and search: Markdown exports, llms.txt,
 * llms-full.txt, feeds, sitemap, robots.txt and the redirects manifest. Pure: cached per-page
 * results and the configuration in, files out; the pipeline uploads those whose bytes changed.
 */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../types.ts';
import { llmsFullTxt, llmsTxt } from './llms-txt.ts';
import { markdownExports } from './markdown-exports.ts';
import { REDIRECTS_KEY, redirectsManifest } from './redirects-manifest.ts';
import { rssFeeds } from './rss-feeds.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

/** The page fields the exports read. */
export type ExportPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'markdown' | 'updates' | 'seo'>;

/**
 * Key → text of every export. `nav` sets the order of the LLM exports (reading order); `moved`
 * (old URL path → new) adds the redirects of moved pages.
 */
export function siteExports(pages: readonly ExportPage[], site: SiteConfig, nav?: readonly NavItem[], moved: Record<string, string> = {}): Map<string, string> {
  const files = new Map<string, string>([...markdownExports(pages), ...rssFeeds(pages, site)]);
  files.set('llms.txt', llmsTxt(pages, site, nav));
  files.set('llms-full.txt', llmsFullTxt(pages, site, nav));
  files.set('sitemap.xml', sitemapXml(pages, site));
  files.set('robots.txt', robotsTxt(site));
  files.set(REDIRECTS_KEY, redirectsManifest(site, moved));
  return files;
}

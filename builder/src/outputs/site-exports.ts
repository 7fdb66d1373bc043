/**
 * Every site-wide text output except shells and search: Markdown exports, llms.txt,
 * llms-full.txt, feeds, sitemap, robots.txt and the redirects manifest. Pure: cached per-page
 * results and the configuration in, files out; the pipeline uploads those whose bytes changed.
 */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../types.ts';
import { combinations, prefixOf, scopeKey, scopeOfUrl } from '../nav/dimensions.ts';
import type { DimensionNav } from '../nav/dimension-nav.ts';
import { llmsFullTxt, llmsTxt, type LlmsEntry } from './llms-txt.ts';
import { markdownExports } from './markdown-exports.ts';
import { REDIRECTS_KEY, redirectsManifest } from './redirects-manifest.ts';
import { rssFeeds } from './rss-feeds.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

/** The page fields the exports read. */
export type ExportPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'markdown' | 'updates' | 'seo'>;

/**
 * Key → text of every export. `nav` sets the order of the LLM exports (reading order). With
 * languages or versions (`dimensions`), each combination has its own `llms.txt` and
 * `llms-full.txt` under its prefix (`fr/v2/llms.txt`), listing its pages and its fallbacks in
 * its sidebar's order; the site root's are the default language and version's.
 */
export function siteExports(pages: readonly ExportPage[], site: SiteConfig, nav?: readonly NavItem[], dimensions?: DimensionNav): Map<string, string> {
  const files = new Map<string, string>([...markdownExports(pages), ...rssFeeds(pages, site)]);
  for (const [prefix, entries, order] of llmsSets(pages, nav, dimensions)) {
    files.set(`${prefix}llms.txt`, llmsTxt(entries, site, order));
    files.set(`${prefix}llms-full.txt`, llmsFullTxt(entries, site, order));
  }
  files.set('sitemap.xml', sitemapXml(pages, site));
  files.set('robots.txt', robotsTxt(site));
  files.set(REDIRECTS_KEY, redirectsManifest(site));
  return files;
}

/** Prefix, pages and sidebar of each `llms.txt`: one for the site, or one per language and version. */
function llmsSets(pages: readonly ExportPage[], nav: readonly NavItem[] | undefined, dimensions: DimensionNav | undefined): [string, LlmsEntry[], readonly NavItem[] | undefined][] {
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

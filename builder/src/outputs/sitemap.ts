/**
 * `sitemap.xml` and `robots.txt`.
 *
 * The sitemap lists every page's absolute URL by path, leaving out pages whose frontmatter says
 * `seo.indexing: noindex` or `noindex: true`, and `hidden: true` pages unless docs.json says
 * `seo.indexing: all`. With `seo.indexing: noindex` for the whole site it is an empty
 * `urlset`: still valid for tools that fetch it, and listing nothing that must not be indexed.
 * (A sitemap holds at most 50,000 URLs, well above the page limit of a site.)
 *
 * `robots.txt` disallows the docs base when the site is `noindex`; otherwise it allows it and
 * names the sitemap.
 */
import type { SiteConfig } from '@folio/site-template/shared/types.ts';
import { hiddenFromIndexing } from '../config/indexing.ts';
import type { CompiledPage } from '../types.ts';
import { absoluteUrl } from './site-paths.ts';
import { escapeXml } from './xml.ts';

type Site = Pick<SiteConfig, 'seo' | 'siteUrl' | 'basePath'>;

/** The text of `sitemap.xml`. */
export function sitemapXml(pages: readonly (Pick<CompiledPage, 'urlPath' | 'seo'> & Partial<Pick<CompiledPage, 'hidden'>>)[], site: Site): string {
  const listed = site.seo?.indexing === 'noindex' ? [] : pages.filter((page) => page.seo?.indexing !== 'noindex' && !hiddenFromIndexing(page, site.seo?.indexing));
  const urls = listed
    .map((page) => page.urlPath)
    .sort()
    .map((path) => `<url><loc>${escapeXml(absoluteUrl(site, path))}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** The text of `robots.txt`. */
export function robotsTxt(site: Site): string {
  const base = `${site.basePath.replace(/\/+$/, '')}/`;
  if (site.seo?.indexing === 'noindex') return `User-agent: *\nDisallow: ${base}\n`;
  return `User-agent: *\nAllow: ${base}\n\nSitemap: ${absoluteUrl(site, '/sitemap.xml')}\n`;
}

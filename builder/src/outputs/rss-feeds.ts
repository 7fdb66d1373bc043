/**
 * RSS 2.0 feeds built from `<Update>` entries: one per page at `<path>/rss.xml` (the root page's
 * at `/index/rss.xml`, see site-paths.ts) and one for the whole site at `/rss.xml`.
 *
 * Items: title = the update's label (prefixed with the page title in the site feed), link and
 * guid = the page URL with the update's anchor, pubDate when the update names a date,
 * description = the `rss` prop or the update's text, content:encoded = its HTML. Newest first;
 * undated updates follow in page order. No build date is written, so an unchanged site yields
 * byte-identical feeds and nothing is uploaded.
 */
import type { SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage, PageUpdate } from '../types.ts';
import { absoluteUrl, feedKey, sitePath } from './site-paths.ts';
import { cdata, escapeXml } from './xml.ts';

/** The page fields feeds read. */
export type FeedPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'updates'>;
type FeedSite = Pick<SiteConfig, 'name' | 'seo' | 'siteUrl' | 'basePath'>;

/** Key of the whole site's feed. */
export const SITE_FEED_KEY = 'rss.xml';

interface Item { page: FeedPage; update: PageUpdate; title: string; time?: number; rank: number }

const timeOf = (date?: string) => {
  const time = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(time) ? undefined : time;
};

function newestFirst(a: Item, b: Item): number {
  if (a.time !== b.time) {
    if (a.time === undefined) return 1;
    if (b.time === undefined) return -1;
    return b.time - a.time;
  }
  return a.rank - b.rank;
}

function feed(site: FeedSite, channel: { title: string; link: string; description: string; self: string }, items: Item[]): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '<channel>',
    `<title>${escapeXml(channel.title)}</title>`,
    `<link>${escapeXml(channel.link)}</link>`,
    `<description>${escapeXml(channel.description)}</description>`,
    `<atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
  ];
  for (const item of items.sort(newestFirst)) {
    const link = `${absoluteUrl(site, item.page.urlPath)}#${item.update.id}`;
    out.push(
      '<item>',
      `<title>${escapeXml(item.title)}</title>`,
      `<link>${escapeXml(link)}</link>`,
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      ...(item.time === undefined ? [] : [`<pubDate>${new Date(item.time).toUTCString()}</pubDate>`]),
      `<description>${escapeXml(item.update.description)}</description>`,
      `<content:encoded>${cdata(item.update.html)}</content:encoded>`,
      '</item>',
    );
  }
  out.push('</channel>', '</rss>', '');
  return out.join('\n');
}

/** The feed of one page (every page has one, empty when it has no updates). */
export function pageFeed(page: FeedPage, site: FeedSite): string {
  const items = page.updates.map((update, rank) => ({ page, update, title: update.label, time: timeOf(update.date), rank }));
  return feed(site, {
    title: `${page.title} · ${site.name}`,
    link: absoluteUrl(site, page.urlPath),
    description: page.description ?? site.seo?.description ?? site.name,
    self: absoluteUrl(site, sitePath(feedKey(page.urlPath))),
  }, items);
}

/** The site feed: every update of every page. */
export function siteFeed(pages: readonly FeedPage[], site: FeedSite): string {
  const sorted = [...pages].sort((a, b) => (a.urlPath < b.urlPath ? -1 : a.urlPath > b.urlPath ? 1 : 0));
  let rank = 0;
  const items = sorted.flatMap((page) => page.updates.map((update) => ({ page, update, title: `${page.title}: ${update.label}`, time: timeOf(update.date), rank: rank++ })));
  return feed(site, {
    title: site.name,
    link: absoluteUrl(site, '/'),
    description: site.seo?.description ?? site.name,
    self: absoluteUrl(site, sitePath(SITE_FEED_KEY)),
  }, items);
}

/** Every feed: key → XML. */
export function rssFeeds(pages: readonly FeedPage[], site: FeedSite): Map<string, string> {
  const files = new Map(pages.map((page) => [feedKey(page.urlPath), pageFeed(page, site)]));
  files.set(SITE_FEED_KEY, siteFeed(pages, site));
  return files;
}

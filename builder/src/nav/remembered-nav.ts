/**
 * `siteNav` for a builder that lives for many builds of one site (the deployment worker's build
 * process): an edit that changes no page's place in the sidebar (its paths, title, sidebar
 * title, order, icon, API operation) and no navigation setting gets the previous build's
 * navigation back, the same objects. Remaking it walked all the site's pages (~15 ms per edit at
 * 10,000 pages), and what is derived from it by identity (reading order, previous/next links)
 * is then kept too.
 *
 * The navigation is frozen once made: builds share it, so nothing may change it.
 */
import { siteNav, type DimensionNav } from './dimension-nav.ts';
import type { NavConfig, NavPage } from './build-nav.ts';
import type { NavItem } from '@folio/site-template/shared/types.ts';

type SiteNav = { nav: NavItem[]; dimensions?: DimensionNav };

let last: { pages: readonly NavPage[]; config: string; sources: readonly string[]; made: SiteNav } | undefined;

/** Same place in the sidebar: the fields `buildNav` reads. */
function samePlace(a: NavPage, b: NavPage): boolean {
  return a === b || (a.sourcePath === b.sourcePath && a.urlPath === b.urlPath && a.title === b.title && a.sidebarTitle === b.sidebarTitle
    && a.order === b.order && a.icon === b.icon && (a.api === b.api || JSON.stringify(a.api) === JSON.stringify(b.api)));
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * The site's sidebars (`siteNav`), made again only when what they are made from changed.
 * `sources` is every page source of the build, as `siteNav`'s `options.sources`.
 */
export function rememberedSiteNav(pages: readonly NavPage[], config: NavConfig, sources: readonly string[]): SiteNav {
  const settings = JSON.stringify([config.contentRoot, config.navigation ?? null, config.navigationPaths ?? null, config.drilldown === true]);
  if (last && last.config === settings && sameList(last.sources, sources, Object.is) && sameList(last.pages, pages, samePlace)) {
    // The pages now: a later build compares with these (unchanged ones are the same objects).
    last.pages = pages;
    last.sources = sources;
    return last.made;
  }
  const made = siteNav(pages, config, { sources: new Set(sources) });
  deepFreeze(made.nav);
  if (made.dimensions) for (const nav of made.dimensions.navs.values()) deepFreeze(nav);
  last = { pages, config: settings, sources, made };
  return made;
}

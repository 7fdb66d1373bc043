/**
 * The navigation of a site with languages or versions (see `dimensions.ts`): one sidebar per
 * combination of language and version, and for each page its switchers (the same page in each
 * version and language, else that combination's first page), `hreflang` links, fallback note
 * and search scope.
 */
import { firstPath } from '@folio/site-template/node/divisions.ts';
import type { NavItem, PageLocale, Switcher } from '@folio/site-template/shared/types.ts';
import { buildNav, type NavConfig, type NavOptions, type NavPage } from './build-nav.ts';
import {
  combinations, hasDimensions, scopeLabel, readDimensions, resolveDimensions, scopeKey, scopeOfUrl, urlIn,
  type Dimension, type Dimensions, type FallbackPage, type Scope,
} from './dimensions.ts';

/** What one page's shell gets on a site with languages or versions. */
export interface PageDimensions {
  nav: NavItem[];
  switchers: Partial<Record<'language' | 'version', Switcher>>;
  locale: PageLocale;
}

/** The navigation of a site with languages or versions. */
export interface DimensionNav {
  dims: Dimensions;
  /** Sidebar per combination (`scopeKey`). */
  navs: Map<string, NavItem[]>;
  /** Pages served by fallback, by URL. */
  fallbacks: Map<string, FallbackPage>;
  /** Shell extras of the page at `urlPath` (a page of the site or a fallback). */
  of(urlPath: string): PageDimensions;
}


/**
 * The site's sidebars, as a build renders them: one per language and version combination when
 * the navigation declares any (`dimensions`, whose first is the default `nav`), else `buildNav`'s.
 */
export function siteNav(pages: readonly NavPage[], config: NavConfig, options: NavOptions = {}): { nav: NavItem[]; dimensions?: DimensionNav } {
  const dimensions = buildDimensionNav(pages, config, options);
  return dimensions ? { nav: [...dimensions.navs.values()][0], dimensions } : { nav: buildNav(pages, config, options) };
}

/**
 * The navigation of every combination, or undefined when the navigation declares no language
 * or version (the site then has one sidebar, as `buildNav` makes it).
 *
 * @throws BuilderError `invalid_config` as `buildNav` does, for the first combination naming a missing page.
 */
export function buildDimensionNav(pages: readonly NavPage[], config: NavConfig, options: NavOptions = {}): DimensionNav | undefined {
  const dims = readDimensions(config.navigation);
  if (!config.navigation || !hasDimensions(dims)) return undefined;
  const resolved = resolveDimensions(config.navigation, config.navigationPaths ?? config.navigation.map((_, i) => [i]), dims, pages, config.contentRoot);
  const navs = new Map<string, NavItem[]>();
  for (const [key, tree] of resolved.trees) {
    const virtual = resolved.virtualPages.get(key) ?? [];
    navs.set(key, buildNav([...pages, ...virtual], { contentRoot: config.contentRoot, navigation: tree.items, navigationPaths: tree.paths, drilldown: config.drilldown }, options));
  }
  const fallbacks = new Map(resolved.fallbacks.map((f) => [f.urlPath, f]));
  const written = new Set(pages.map((p) => p.urlPath));
  const urls = new Set([...written, ...fallbacks.keys()]);
  const urlOf = new Map(pages.map((p) => [p.sourcePath, p.urlPath]));
  const defaults = combinations(dims)[0];

  const switcher = (list: Dimension[], kind: 'language' | 'version', scope: Scope, rest: string): Switcher | undefined => {
    if (list.length < 2) return undefined;
    const current = list.find((d) => d.name === scope[kind]);
    return {
      current: current?.title ?? '',
      options: list.flatMap((d) => {
        const there = { ...scope, [kind]: d.name };
        const same = urlIn(there, rest, dims);
        const href = urls.has(same) ? same : firstPath(navs.get(scopeKey(there)) ?? []);
        return href === undefined ? [] : [{ label: d.title, href }];
      }),
    };
  };

  return {
    dims, navs, fallbacks,
    of(urlPath) {
      const { rest, ...scope } = scopeOfUrl(urlPath, dims);
      const nav = navs.get(scopeKey(scope)) ?? navs.get(scopeKey(defaults)) ?? [];
      const switchers: PageDimensions['switchers'] = {};
      const language = switcher(dims.languages, 'language', scope, rest);
      const version = switcher(dims.versions, 'version', scope, rest);
      if (language) switchers.language = language;
      if (version) switchers.version = version;
      const prefix = urlIn(scope, '/', dims);
      const locale: PageLocale = { lang: scope.language ?? 'en', search: { scope: scopeLabel(scope), prefix: prefix === '/' ? '' : prefix } };
      // hreflang links name pages written in each language: a fallback is its source's copy.
      if (dims.languages.length > 1 && !fallbacks.has(urlPath)) {
        const alternates = dims.languages.flatMap((d) => {
          const href = urlIn({ ...scope, language: d.name }, rest, dims);
          return written.has(href) ? [{ hreflang: d.name, href }] : [];
        });
        const home = urlIn({ ...scope, language: defaults.language }, rest, dims);
        if (written.has(home)) alternates.push({ hreflang: 'x-default', href: home });
        if (alternates.length > 1) locale.alternates = alternates;
      }
      const fallback = fallbacks.get(urlPath);
      if (fallback) {
        const from = scopeOfUrl(urlOf.get(fallback.from) ?? '/', dims);
        const list = fallback.missing === 'language' ? dims.languages : dims.versions;
        const title = (name: string | undefined) => list.find((d) => d.name === name)?.title ?? '';
        locale.fallback = {
          href: urlOf.get(fallback.from) ?? '/', missing: fallback.missing,
          wanted: title(scope[fallback.missing]), shown: title(from[fallback.missing]),
        };
      }
      return { nav, switchers, locale };
    },
  };
}

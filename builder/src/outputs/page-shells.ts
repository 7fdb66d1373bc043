/**
 * HTML shells: the site template's `renderPage` around each page's compiled body, written at
 * clean URLs (`/guides/install` → `guides/install/index.html`, `/` → `index.html`), and
 * `404.html` from `render404`.
 */
import { render404, renderPage } from '@folio/site-template';
import type { ClientAssets, NavItem, PageShellInput, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { DimensionNav } from '../nav/dimension-nav.ts';
import { prevNextByPath, type PrevNext } from '../nav/prev-next.ts';
import { hiddenFromIndexing } from '../config/indexing.ts';
import type { CompiledPage } from '../types.ts';
import { feedKey, htmlKey, markdownKey, sitePath } from './site-paths.ts';

/** What every shell of a site shares. */
export interface ShellContext {
  site: SiteConfig;
  nav: NavItem[];
  assets: ClientAssets;
  /** Comma-separated Pagefind bundle bases (see `searchBaseOf`). */
  searchBase: string;
  /** For `{year}` in the copyright; passed in so output is reproducible. */
  year: number;
  switchers?: PageShellInput['switchers'];
  /** The page's language and version (sites with languages or versions). */
  locale?: PageShellInput['locale'];
  /** Sites with languages or versions: each page's sidebar, switchers and locale (see {@link pageContext}). */
  dimensions?: DimensionNav;
}

/**
 * The shell context of the page at `urlPath`: on a site with languages or versions, its
 * combination's sidebar, switchers and locale; else `ctx` itself.
 */
export function pageContext(ctx: ShellContext, urlPath: string): ShellContext {
  if (!ctx.dimensions) return ctx;
  const { nav, switchers, locale } = ctx.dimensions.of(urlPath);
  return { ...ctx, nav, switchers, locale };
}

/** The page fields a shell reads. */
export type ShellPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description' | 'bodyHtml' | 'toc' | 'rss' | 'seo'> & Partial<Pick<CompiledPage, 'mode' | 'hidden'>>;

/** The template input of one page, with its export and feed paths, its neighbours and its client module (site path). */
export function pageShellInput(page: ShellPage, ctx: ShellContext, neighbours: PrevNext = {}, island?: string): PageShellInput {
  const input: PageShellInput = {
    site: ctx.site,
    page: {
      path: page.urlPath,
      title: page.title,
      description: page.description,
      bodyHtml: page.bodyHtml,
      toc: page.toc,
      rss: page.rss,
      seo: hiddenFromIndexing(page, ctx.site.seo?.indexing) ? { ...page.seo, indexing: 'noindex' } : page.seo,
      ...(page.mode ? { mode: page.mode } : {}),
      // A fallback (another language's or version's page) links to its source's export and feed.
      markdownPath: sitePath(markdownKey(ctx.locale?.fallback?.href ?? page.urlPath)),
      feedPath: sitePath(feedKey(ctx.locale?.fallback?.href ?? page.urlPath)),
      ...(island ? { island } : {}),
    },
    nav: ctx.nav,
    assets: ctx.assets,
    searchBase: ctx.searchBase,
    year: ctx.year,
  };
  if (neighbours.prev) input.prev = neighbours.prev;
  if (neighbours.next) input.next = neighbours.next;
  if (ctx.switchers) input.switchers = ctx.switchers;
  if (ctx.locale) input.locale = ctx.locale;
  return input;
}

/**
 * The HTML of one page's shell: its own sidebar, switchers and locale (`pageContext`), its
 * previous/next links from that sidebar, and its client module (site path) when it has one. The
 * build, the dev server's early page and its edits all render shells with this.
 */
export function renderShell(page: ShellPage, shell: ShellContext, island?: string): string {
  const own = pageContext(shell, page.urlPath);
  return renderPage(pageShellInput(page, own, prevNextByPath(own.nav).get(page.urlPath), island));
}

/** Key → HTML of every page's shell. */
export function pageShells(pages: readonly ShellPage[], ctx: ShellContext): Map<string, string> {
  return new Map(pages.map((page) => [htmlKey(page.urlPath), renderShell(page, ctx)]));
}

/** Key of the not-found page the server answers 404 with. */
export const NOT_FOUND_KEY = '404.html';

/** The not-found page. */
export function notFoundShell(ctx: ShellContext): string {
  const { site, nav, assets, searchBase, year, switchers } = ctx;
  return render404({ site, nav, assets, searchBase, year, ...(switchers ? { switchers } : {}) });
}

/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput } from '../shared/types.ts';
import { INLINE_HEAD_SCRIPT } from './inline-script.ts';
import { TITLE_SEPARATOR } from './theme-traits.ts';
import { absoluteUrl, withBase } from './urls.ts';

/** What the head needs beyond the shell input. */
export interface HeadProps {
  input: Omit<PageShellInput, 'page' | 'prev' | 'next'>;
  page?: PageShellInput['page'];
  /** Page title for pages without `page` (the 404 page). */
  title: string;
  /** The 404 page is never indexed and has no canonical URL. */
  notFound?: boolean;
}

/**
 * `<title>`: page title + " - " + site title, where the site title is `seo.title` (page
 * frontmatter first, then the site's), else the project name. A page titled exactly like the
 * site (a typical home page) shows the site title once.
 */
export function composeTitle(pageTitle: string, site: PageShellInput['site'], pageSeo?: PageShellInput['page']['seo']): string {
  const siteTitle = pageSeo?.title ?? site.seo?.title ?? site.name;
  if (!pageTitle || pageTitle === siteTitle) return siteTitle;
  return pageTitle + TITLE_SEPARATOR + siteTitle;
}

/** The document head: title, no-flash script, stylesheet, client script, SEO and social metadata. */
export function Head({ input, page, title, notFound }: HeadProps) {
  const { site, assets } = input;
  const seo = { ...site.seo, ...page?.seo };
  const base = site.basePath;
  const fullTitle = composeTitle(title, site, page?.seo);
  const description = page?.seo?.description ?? page?.description ?? site.seo?.description;
  const locale = input.locale;
  // A page shown by fallback is another page's content: that page is the canonical one.
  const canonical = page && !notFound ? absoluteUrl(site.siteUrl, base, locale?.fallback?.href ?? page.path) : undefined;
  const ogImage = seo.ogImage ? absoluteUrl(site.siteUrl, base, seo.ogImage) : undefined;
  const noindex = notFound || seo.indexing === 'noindex';
  const metatags = { ...site.seo?.metatags, ...page?.seo?.metatags };
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{fullTitle}</title>
      <script dangerouslySetInnerHTML={{ __html: INLINE_HEAD_SCRIPT }} />
      {assets.fonts ? <link rel="stylesheet" href={withBase(base, assets.fonts)} /> : null}
      <link rel="stylesheet" href={withBase(base, assets.css[site.theme])} />
      {assets.utilities ? <link rel="stylesheet" href={withBase(base, assets.utilities)} /> : null}
      {assets.custom ? <link rel="stylesheet" href={withBase(base, assets.custom)} /> : null}
      <script type="module" src={withBase(base, assets.js)} />
      {page?.island ? <script type="module" src={withBase(base, page.island)} /> : null}
      {description ? <meta name="description" content={description} /> : null}
      {seo.keywords?.length ? <meta name="keywords" content={seo.keywords.join(', ')} /> : null}
      {seo.author ? <meta name="author" content={seo.author} /> : null}
      {noindex ? <meta name="robots" content="noindex" /> : null}
      {canonical ? <link rel="canonical" href={canonical} /> : null}
      {!notFound ? locale?.alternates?.map((a) => <link rel="alternate" hreflang={a.hreflang} href={absoluteUrl(site.siteUrl, base, a.href)} />) : null}
      {locale?.search ? <meta name="folio-scope" content={JSON.stringify({ scope: locale.search.scope, prefix: base.replace(/\/+$/, '') + locale.search.prefix })} /> : null}
      {seo.favicon ? <link rel="icon" href={withBase(base, seo.favicon)} /> : null}
      <meta property="og:type" content="website" />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:site_name" content={site.seo?.title ?? site.name} />
      {description ? <meta property="og:description" content={description} /> : null}
      {canonical ? <meta property="og:url" content={canonical} /> : null}
      {ogImage ? <meta property="og:image" content={ogImage} /> : null}
      <meta name="twitter:card" content={ogImage ? 'summary_large_image' : 'summary'} />
      {ogImage ? <meta name="twitter:image" content={ogImage} /> : null}
      {page?.rss ? <link rel="alternate" type="application/rss+xml" title={fullTitle} href={withBase(base, page.feedPath)} /> : null}
      {base ? <meta name="folio-base" content={base.replace(/\/+$/, '')} /> : null}
      <meta name="folio-search" content={input.searchBase.split(',').map((b) => withBase(base, b.trim())).join(',')} />
      {Object.entries(metatags).map(([name, content]) =>
        // Open Graph keys are properties, everything else a name.
        /^(og|article|profile|book|fb):/.test(name) ? <meta property={name} content={content} /> : <meta name={name} content={content} />,
      )}
    </head>
  );
}

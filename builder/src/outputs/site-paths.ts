/**
 * Where each per-page output lives. Keys are relative to the docs base (the pipeline stores
 * them under the site's prefix); site paths are the same with a leading `/`, as the shell
 * receives them; absolute URLs add `siteUrl` and `basePath`.
 *
 * The root page's own feed is `/index/rss.xml`: `/rss.xml` is the whole site's feed. (A page at
 * `/index` cannot exist: `index.mdx` is the root page.)
 */

/** `/guides/install` → `guides/install/index.html`; `/` → `index.html` (clean URLs). */
export function htmlKey(urlPath: string): string {
  return urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`;
}

/** `/guides/install` → `guides/install.md`; `/` → `index.md`. */
export function markdownKey(urlPath: string): string {
  return urlPath === '/' ? 'index.md' : `${urlPath.slice(1)}.md`;
}

/** `/guides/install` → `guides/install/rss.xml`; `/` → `index/rss.xml`. */
export function feedKey(urlPath: string): string {
  return urlPath === '/' ? 'index/rss.xml' : `${urlPath.slice(1)}/rss.xml`;
}

/** The site path of a key: `guides/install.md` → `/guides/install.md`. */
export function sitePath(key: string): string {
  return `/${key}`;
}

/** What absolute URLs are built from. */
export interface SiteOrigin { siteUrl: string; basePath: string }

/** Absolute URL of a site path: `https://acme.docs.example` + `/docs` + `/guides/install`. */
export function absoluteUrl(site: SiteOrigin, path: string): string {
  return site.siteUrl.replace(/\/+$/, '') + site.basePath.replace(/\/+$/, '') + path;
}

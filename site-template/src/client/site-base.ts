/**
 * Where the platform's endpoints are for this page. A site built with a base path (served under
 * `https://example.com/docs/` by a proxy that strips `/docs` before the site server) names it in
 * `<meta name="folio-base">`; the beacons and the assistant then post to `/docs/_folio/...`, so
 * the proxy forwards them like the pages, and report the page's site path (`/guides/install`,
 * as the server records page views) rather than the address bar's.
 */

/** The base path (`/docs`), or '' for a site at the root of its host. */
export function siteBase(): string {
  return (document.querySelector<HTMLMetaElement>('meta[name=folio-base]')?.content ?? '').replace(/\/+$/, '');
}

/** A platform endpoint (`/_folio/feedback`) under the site's base path. */
export function folioUrl(endpoint: string): string {
  return siteBase() + endpoint;
}

/** The page's path within the site: the address bar's path without the base path. */
export function sitePath(): string {
  const base = siteBase();
  const path = location.pathname;
  if (base && (path === base || path.startsWith(`${base}/`))) return path.slice(base.length) || '/';
  return path;
}

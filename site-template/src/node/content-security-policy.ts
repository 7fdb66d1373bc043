/**
 * The Content-Security-Policy of a site's pages. Images, fonts, media, stylesheets and frames load
 * from the site's own origin (and `data:`/`blob:` where the template makes them), plus the
 * origins the site declares; nothing else. A stylesheet or an inline `style` that names another
 * host (a page's `<style>`, a component's `style={…}`, a custom stylesheet or utility class built
 * before the CSS sanitiser judged URLs as browsers do) therefore loads nothing from it.
 *
 * What it leaves open, and why: scripts and `connect-src`. A page's own interactive components and
 * head snippets are the site's code, and the API playground sends requests to the server the
 * reader types; the assistant, search (Pagefind) and analytics beacons reach the site's own
 * origin only. `object-src 'none'` and `base-uri 'self'` close the two old ways around the rest.
 */

/** Sources every site gets, by directive (the template's own needs). */
const BASE: ReadonlyArray<[directive: string, sources: string]> = [
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self' data:"],
  ['media-src', "'self' data: blob:"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['frame-src', "'self'"],
];

/**
 * An origin as CSP writes it (`https://cdn.example.com`, `https://cdn.example.com:8443`), or
 * undefined for anything that is not an absolute http(s) URL. Paths, queries and credentials are
 * dropped: a policy source names a host.
 */
export function cspOrigin(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (!url.hostname || url.username || url.password) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The policy of a site's HTML pages.
 *
 * @param origins Origins the site declares (its logo's and favicon's hosts, `remoteOrigins` of
 *   docs.json), allowed for images, fonts, media, stylesheets and frames; entries that are not
 *   absolute http(s) URLs are ignored, duplicates written once. Default none.
 */
export function contentSecurityPolicy(origins: Iterable<string> = []): string {
  const extra = [...new Set([...origins].map(cspOrigin).filter((o): o is string => o !== undefined))].sort();
  const tail = extra.length ? ` ${extra.join(' ')}` : '';
  return [...BASE.map(([directive, sources]) => `${directive} ${sources}${tail}`), "object-src 'none'", "base-uri 'self'"].join('; ');
}

/** The policy of a site that declares no origin (and of sites built before the policy existed). */
export const DEFAULT_CONTENT_SECURITY_POLICY = contentSecurityPolicy();

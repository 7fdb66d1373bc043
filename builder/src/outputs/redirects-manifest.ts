/**
 * `_redirects.json`, the manifest the site server and the CDN apply before looking up a file:
 * `[{ source, destination, status }]` in configuration order, first match wins.
 *
 * Status: 308 for `permanent: true`, 307 otherwise. Both keep the method and body, unlike
 * 301/302, and 307 keeps browsers from caching a redirect the author may still change.
 * Sources, and destinations that are root-relative paths, are resolved against the docs base,
 * so the server compares them with request paths as they are.
 */
import type { SiteConfig } from '@folio/site-template/shared/types.ts';

/** One redirect as the server applies it. */
export interface RedirectRule { source: string; destination: string; status: 307 | 308 }

/** Key of the manifest. */
export const REDIRECTS_KEY = '_redirects.json';

const withBase = (basePath: string, path: string) => (path.startsWith('/') && !path.startsWith('//') ? basePath.replace(/\/+$/, '') + path : path);

/**
 * The redirect rules of a site: the configuration's, then one 308 per moved page (`moved`: old
 * URL path → new one, see `page-moves.ts`), whose source no explicit rule already has, then,
 * when the site has no home page (`home`: the first page of its navigation, for a site whose
 * navigation starts at a nested or versioned page), a 307 from `/` to it, as Mintlify answers.
 */
export function redirectRules(site: Pick<SiteConfig, 'redirects' | 'basePath'>, moved: Record<string, string> = {}, home?: string): RedirectRule[] {
  const rules: RedirectRule[] = (site.redirects ?? []).map((r) => ({
    source: withBase(site.basePath, r.source),
    destination: withBase(site.basePath, r.destination),
    status: r.permanent ? 308 : 307,
  }));
  const explicit = new Set(rules.map((r) => r.source));
  for (const [from, to] of Object.entries(moved)) {
    const source = withBase(site.basePath, from);
    if (!explicit.has(source)) rules.push({ source, destination: withBase(site.basePath, to), status: 308 });
  }
  const root = site.basePath.replace(/\/+$/, '') || '/';
  if (home !== undefined && home !== '/' && !explicit.has(root) && !explicit.has('/')) rules.push({ source: root, destination: withBase(site.basePath, home), status: 307 });
  return rules;
}

/** The text of `_redirects.json`. */
export function redirectsManifest(site: Pick<SiteConfig, 'redirects' | 'basePath'>, moved: Record<string, string> = {}, home?: string): string {
  return JSON.stringify(redirectRules(site, moved, home), null, 2) + '\n';
}

/**
 * The headers a site's build wrote for its HTML (`_headers.json`: its Content-Security-Policy),
 * read per bucket prefix and kept while the object's ETag is unchanged, as the redirects are.
 * A site without the file (built before it existed) gets the default policy.
 */
import { HEADERS_KEY, readSiteHeaders, type ObjectStore, type SiteHeaders } from '@folio/builder';

/** A reader of `_headers.json` by site prefix (`sites/<id>/`), caching each by its ETag. */
export function siteHeadersReader(store: ObjectStore): (prefix: string) => Promise<SiteHeaders> {
  const cache = new Map<string, { etag: string; headers: SiteHeaders }>();
  return async (prefix) => {
    const head = await store.head(`${prefix}${HEADERS_KEY}`);
    if (!head) { cache.delete(prefix); return readSiteHeaders(undefined); }
    const cached = cache.get(prefix);
    if (cached && cached.etag === head.etag) return cached.headers;
    const headers = readSiteHeaders(await store.get(`${prefix}${HEADERS_KEY}`));
    cache.set(prefix, { etag: head.etag, headers });
    return headers;
  };
}

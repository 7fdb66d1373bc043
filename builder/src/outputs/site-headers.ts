/**
 * `_headers.json`: the response headers of a site's HTML (its pages and `404.html`), which a
 * bucket cannot store with each object. The site server (and a CDN reading the bucket, see the
 * docs/operations.md, "CDN mapping") adds them to every HTML response. Today it holds the site's
 * Content-Security-Policy: what pages may load, from the site's own origin and the origins the
 * site declares in docs.json (the hosts of an absolute logo or favicon URL, `remoteOrigins`,
 * and the origin of `siteUrl`, where custom CSS may point with absolute URLs).
 */
import { contentSecurityPolicy, DEFAULT_CONTENT_SECURITY_POLICY } from '@folio/site-template/node/content-security-policy.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';

/** Object key of the headers file, beside `_redirects.json`. */
export const HEADERS_KEY = '_headers.json';

/** The headers of a site's HTML responses, by name. */
export type SiteHeaders = Record<string, string>;

/** Header names `_headers.json` may set; anything else in the file is ignored by `readSiteHeaders`. */
const ALLOWED = new Set(['Content-Security-Policy']);

/** The headers of a site built before `_headers.json` existed, or whose file cannot be read. */
export const DEFAULT_SITE_HEADERS: Readonly<SiteHeaders> = Object.freeze({ 'Content-Security-Policy': DEFAULT_CONTENT_SECURITY_POLICY });

type OriginFields = Pick<ResolvedConfig, 'siteUrl' | 'colors' | 'seo' | 'remoteOrigins' | 'fontSources'>;

/** The origins a configuration declares (see the module comment); `contentSecurityPolicy` keeps the absolute http(s) ones. */
export function declaredOrigins(config: OriginFields): string[] {
  return [
    config.siteUrl,
    config.colors?.logo?.light, config.colors?.logo?.dark,
    config.seo?.favicon,
    ...(config.remoteOrigins ?? []),
    ...(config.fontSources ?? []).map((s) => s.url),
  ].filter((v): v is string => typeof v === 'string');
}

/** The text of `_headers.json` for a configuration. */
export function siteHeaders(config: OriginFields): string {
  const headers: SiteHeaders = { 'Content-Security-Policy': contentSecurityPolicy(declaredOrigins(config)) };
  return `${JSON.stringify(headers, null, 2)}\n`;
}

/**
 * The headers in a stored `_headers.json` (`undefined`: no file): known names with string values
 * only, one line each, so a damaged file cannot add other headers or split a response.
 * `DEFAULT_SITE_HEADERS` when the file is absent or unreadable.
 */
export function readSiteHeaders(bytes: Uint8Array | undefined): SiteHeaders {
  if (!bytes) return { ...DEFAULT_SITE_HEADERS };
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(bytes).toString('utf8')); } catch { return { ...DEFAULT_SITE_HEADERS }; }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ...DEFAULT_SITE_HEADERS };
  const out: SiteHeaders = {};
  for (const [name, value] of Object.entries(parsed)) {
    // eslint-disable-next-line no-control-regex -- a header value never holds control characters.
    if (ALLOWED.has(name) && typeof value === 'string' && value.length <= 8192 && !/[\x00-\x1f\x7f]/.test(value)) out[name] = value;
  }
  return { ...DEFAULT_SITE_HEADERS, ...out };
}

/**
 * URL helpers. Every path the shell receives (page paths, nav paths, asset URLs, the search base,
 * logo href, favicon) is site-relative: it starts with `/` and does not include `basePath`.
 * The shell prefixes `basePath` once, here.
 */

/** `basePath` + a root-relative path; absolute URLs, anchors and protocol-relative URLs pass through. */
export function withBase(basePath: string, href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const base = basePath.replace(/\/+$/, '');
  if (base && (href === base || href.startsWith(base + '/'))) return href;
  return base + href;
}

/** Absolute URL of a site path: siteUrl + basePath + path. */
export function absoluteUrl(siteUrl: string, basePath: string, href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  return siteUrl.replace(/\/+$/, '') + withBase(basePath, href.startsWith('/') ? href : '/' + href);
}

/** True for http(s) URLs, which open in a new tab when a link says so. */
export function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/**
 * Anchor id from free text: lowercase letters and digits of any script, accents dropped, every
 * other run of characters one hyphen (`v2.1.0` → `v2-1-0`). Text with no letters or digits gives
 * `section`, so an anchor is never empty.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'section';
}

/** Functions that load an image or a URL; with no backslash in a value, its function names are written as they read. */
const LOADING_FUNCTION = /(?:url|src|image-set|image|cross-fade|element|expression)\(/i;

/**
 * A configuration value placed inside a CSS declaration. Values that could end the declaration
 * or the rule (`;`, braces, angle brackets) are dropped rather than escaped: a colour or a font
 * stack never needs them. So are values that could load something (`url(…)`, `image-set(…)`
 * and the like, as a gradient background or a CTA colour could hold) and any backslash, which
 * could spell one in escapes: the site's CSS loads only what its sanitised stylesheets name.
 */
export function cssValue(value: string | undefined): string | undefined {
  if (value === undefined || /[;{}<>\\]/.test(value) || LOADING_FUNCTION.test(value) || value.trim() === '') return undefined;
  return value.trim();
}

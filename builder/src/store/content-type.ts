/**
 * Content-Type and Cache-Control of published objects, decided from the key alone so the
 * local store, S3 and the site server agree.
 */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8', md: 'text/markdown; charset=utf-8', txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8', json: 'application/json', js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml', png: 'image/png',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', ico: 'image/x-icon',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', pdf: 'application/pdf',
  wasm: 'application/wasm', webmanifest: 'application/manifest+json', mp4: 'video/mp4', webm: 'video/webm',
  csv: 'text/csv; charset=utf-8', yaml: 'text/yaml; charset=utf-8', yml: 'text/yaml; charset=utf-8',
  pagefind: 'application/octet-stream', pf_fragment: 'application/octet-stream', pf_index: 'application/octet-stream',
  pf_meta: 'application/octet-stream', pf_filter: 'application/octet-stream', gz: 'application/gzip',
};

/** MIME type for a key by its extension; `application/octet-stream` when unknown. */
export function contentTypeFor(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot >= 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** For content-hashed files: cached by browsers and the CDN for a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * For pages, exports, feeds and every other file at a stable URL: stored, but revalidated on
 * every use (a conditional request answered 304 by ETag), so a deploy shows on the next request.
 * No `s-maxage`: a shared cache would serve the old file until it expires, and a deploy does not
 * purge any cache.
 */
export const REVALIDATE = 'public, max-age=0, must-revalidate';
/** @deprecated The old name of `REVALIDATE` (was a minute, which kept old pages up after a deploy). */
export const SHORT = REVALIDATE;
/** For the builder's own state (manifest, page cache): never cached by anyone. */
export const PRIVATE = 'no-store';

/**
 * Cache-Control for a key: `IMMUTABLE` for the template's content-hashed bundle (`_folio/*`)
 * and Pagefind's hashed fragments, indexes and filters; `PRIVATE` for the builder's state
 * (`_folio/cache/**`: manifest, summaries, page cache); `REVALIDATE` for everything else (pages,
 * `404.html`, `.md` exports, llms files, feeds, sitemap, Pagefind's entry and loader,
 * `_redirects.json`, `_headers.json`, files from `public/`).
 */
export function cacheControlFor(key: string): string {
  if (key.startsWith('_folio/cache/')) return PRIVATE;
  if (key.startsWith('_folio/')) return IMMUTABLE;
  if (/(^|\/)_pagefind\/(.+\/)?(fragment|index|filter)\//.test(key) || /\.pf_(fragment|index|filter)$/.test(key)) return IMMUTABLE;
  return REVALIDATE;
}

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
/** For pages, exports, feeds and other files at stable URLs: a minute, then revalidated. */
export const SHORT = 'public, max-age=60, must-revalidate';
/** For the builder's own state (manifest, page cache): never cached by anyone. */
export const PRIVATE = 'no-store';

/**
 * Cache-Control for a key: `IMMUTABLE` for the template's content-hashed bundle (`_folio/*`)
 * and Pagefind's hashed fragments, indexes and filters; `PRIVATE` for the builder's state
 * (`_folio/cache/**`: manifest, summaries, page cache); `SHORT` for everything else.
 */
export function cacheControlFor(key: string): string {
  if (key.startsWith('_folio/cache/')) return PRIVATE;
  if (key.startsWith('_folio/')) return IMMUTABLE;
  if (/(^|\/)_pagefind\/(.+\/)?(fragment|index|filter)\//.test(key) || /\.pf_(fragment|index|filter)$/.test(key)) return IMMUTABLE;
  return SHORT;
}

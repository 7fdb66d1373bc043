/**
 * `If-None-Match` as RFC 9110 §13.1.2 reads it: a list of entity tags or `*`, compared weakly
 * (`W/"x"` matches `"x"`), because caches and proxies that compress a response may weaken the
 * ETag they were given and send it back that way.
 */

/** The opaque part of an entity tag (`W/"abc"` and `"abc"` → `abc`), or undefined when malformed. */
function opaque(tag: string): string | undefined {
  const m = /^(?:W\/)?"([^"]*)"$/.exec(tag.trim());
  return m ? m[1] : undefined;
}

/**
 * Whether a request's `If-None-Match` header (undefined when absent) names `etag` (a quoted
 * strong tag, as the site server sends) or is `*`: then a GET or HEAD is answered 304.
 */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const mine = opaque(etag);
  if (mine === undefined) return false;
  // Entity tags cannot contain `"` or `,` outside their quotes, so a split on `,` between tags is exact.
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === mine);
}

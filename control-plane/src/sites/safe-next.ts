/**
 * Where a visitor goes after the site password form: a path of the same site, never another
 * origin. Browsers forgive a lot in a `Location` header (they drop tab, CR and LF anywhere, read
 * `\` as `/`, and treat `//host` and `/\host` as another host), so the value is judged the way a
 * browser would read it, as given and with its path decoded once, then resolved against a fixed
 * origin that must not change, and emitted in the URL parser's own serialisation, which leaves
 * nothing for a browser to reinterpret.
 */

const ORIGIN = 'https://site.invalid';
/** Longest `next` kept; longer ones fall back to `/` (the form itself caps bodies at 4 KB). */
const MAX_NEXT = 2048;
// ASCII controls (tab, CR, LF included) and DEL. A browser removes some and stops at others; none belongs in a path.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `s`, read as a browser reads a relative URL, stays on the same origin by its shape. */
function looksLocal(s: string): boolean {
  if (CONTROL.test(s) || s !== s.trim()) return false;
  const slashed = s.replace(/\\/g, '/');
  return slashed.startsWith('/') && !slashed.startsWith('//');
}

function decodeOnce(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/**
 * The path (with query and fragment) to redirect to after signing in, or `/` when `next` is
 * missing or could lead anywhere else: a scheme (`javascript:`, `https://…`), a protocol-relative
 * `//host` or `/\host` (also when hidden behind a control character, a backslash or one level of
 * percent-encoding such as `/%2F/host` or `/%09/host`). The answer is percent-encoded, e.g.
 * `safeNext('/guide?q=a b#x')` is `/guide?q=a%20b#x`.
 */
export function safeNext(next: string | undefined | null): string {
  if (!next || next.length > MAX_NEXT) return '/';
  // Only the path decides where a browser goes; the query and fragment stay as given.
  const decodedPath = decodeOnce(next.split(/[?#]/, 1)[0]);
  if (decodedPath === undefined || !looksLocal(next) || !looksLocal(decodedPath)) return '/';
  let url: URL;
  try {
    url = new URL(next, ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== ORIGIN) return '/';
  const path = url.pathname + url.search + url.hash;
  // The serialisation is judged once more: what is emitted must itself be a plain local path.
  return looksLocal(path) && looksLocal(decodeOnce(url.pathname) ?? '//') ? path : '/';
}

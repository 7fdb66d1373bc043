/**
 * What a person pastes into "Add a domain" is often a URL (`https://docs.example.com/path`) rather
 * than a hostname. Both sides take its host: the app before sending, the dashboard API before
 * checking the hostname rule, so a pasted address works even from a client that sends it as is.
 * No imports: the browser bundle and the server use it alike.
 */

/**
 * The hostname in `input`: lowercased and trimmed; from an `http(s)://` URL its host (port,
 * credentials, path, query and fragment dropped); from `host/path` the part before the first
 * `/`, `?` or `#`; one trailing dot removed. Anything else comes back as typed, for the hostname
 * rule to judge.
 */
export function hostFromInput(input: string): string {
  let v = input.trim().toLowerCase();
  if (/^https?:\/\//.test(v)) {
    try {
      v = new URL(v).hostname;
    } catch {
      return v;
    }
  } else if (!v.includes('://')) {
    v = v.split(/[/?#]/)[0];
  }
  return v.endsWith('.') && !v.endsWith('..') ? v.slice(0, -1) : v;
}

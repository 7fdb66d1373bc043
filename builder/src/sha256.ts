import { hash } from 'node:crypto';

/**
 * The SHA-256 of `data` in hex. One call, no hash object: a build hashes every page's cache key,
 * shell inputs and export inputs, and making a hash object is most of the cost of a short
 * input (builder docs/benchmarks.md, "One-shot sha256").
 */
export function sha256(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** Hashes kept by `sha256Again`, at most (then it starts again empty). */
const KEPT = 100_000;
const hashes = new Map<string, string>();

/**
 * `sha256(text)` for text hashed again and again: every build hashes every page's cache key and
 * search stamp, and a long-lived builder's next build the same ones, so they are looked up
 * rather than hashed once more.
 */
export function sha256Again(text: string): string {
  let digest = hashes.get(text);
  if (digest === undefined) {
    if (hashes.size >= KEPT) hashes.clear();
    hashes.set(text, digest = sha256(text));
  }
  return digest;
}

/** Texts `sha256OfRecentText` remembers: the last few. */
const RECENT_KEPT = 8;
const recent = new Map<string, string>();

/**
 * `sha256(text)` for a large text that may be the very string hashed in a recent build: a kept
 * builder's site-wide files (`llms.txt`, the feed, the sitemap, 1-2 MB each at 10,000 pages) are
 * the same string objects when what they read did not change (outputs/site-exports.ts), found
 * here by identity instead of hashed again. Unlike `sha256Again`, only the last few are kept:
 * each can be megabytes.
 */
export function sha256OfRecentText(text: string): string {
  let digest = recent.get(text);
  if (digest === undefined) digest = sha256(text);
  else recent.delete(text); // most recently used last
  recent.set(text, digest);
  for (const old of recent.keys()) if (recent.size > RECENT_KEPT) recent.delete(old);
  return digest;
}

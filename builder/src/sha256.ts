import { hash } from 'node:crypto';

/**
 * The SHA-256 of `data` in hex. One call, no hash object: a build hashes every page's cache key,
 * shell inputs and export inputs, and `createHash(...).update(...).digest()` took ~9 µs a call
 * against ~2 µs, most of it making the object.
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

/**
 * GitHub signs every webhook delivery with HMAC-SHA256 of the raw body under the shared
 * secret and sends it as `X-Hub-Signature-256: sha256=<64 hex digits>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-f]{64})$/;

/** `sha256=<hex>` for `body` under `secret`: what GitHub sends (tests sign with it too). */
export function signBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Whether `header` is a well-formed signature of `body` under `secret`. The digests are
 * compared in constant time on equal-length buffers, so response timing reveals nothing about
 * how much of a forged signature was right. A missing or malformed header is simply false.
 */
export function verifySignature(secret: string, body: Uint8Array, header: string | undefined): boolean {
  const match = HEADER.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

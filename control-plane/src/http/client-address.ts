/**
 * Who sent a request: the socket's address, or, behind a trusted proxy, the address that proxy
 * wrote into `X-Forwarded-For`.
 *
 * A proxy appends the address it received the request from to whatever `X-Forwarded-For` the
 * client sent, so only the entry added by the proxy we run can be believed: the rightmost one
 * (`TRUST_PROXY=true` means one CDN or load balancer in front; with a chain, the proxy nearest
 * the platform must replace the header with the client's address rather than append to it). The
 * leftmost entry is whatever the client chose to write, and keying rate limits, visitor ids or
 * audit addresses on it would let a client pose as anyone.
 */
import type http from 'node:http';

/** The `X-Forwarded-For` entries of `req`, left to right, over all repeated headers. */
function forwardedFor(req: http.IncomingMessage): string[] {
  const raw = req.headers['x-forwarded-for'];
  const joined = Array.isArray(raw) ? raw.join(',') : raw ?? '';
  return joined.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * The client's address (IPv4-mapped IPv6 written as plain IPv4), or null when the socket has
 * none. With `trustProxy`, the rightmost `X-Forwarded-For` entry, when there is one.
 */
export function clientAddress(req: http.IncomingMessage, trustProxy: boolean): string | null {
  if (trustProxy) {
    const picked = forwardedFor(req).at(-1);
    if (picked) return picked.replace(/^::ffff:/, '');
  }
  return req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? null;
}

/** Who is asking: the socket's address, or with a trusted proxy the address it wrote ({@link clientAddress}). */
export function visitorAddress(trustProxy: boolean): (req: http.IncomingMessage) => string {
  return (req) => clientAddress(req, trustProxy) ?? 'unknown';
}

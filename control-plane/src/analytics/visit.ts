/** Builds the {@link Visit} of an incoming HTTP request. */
import type http from 'node:http';
import type { Visit } from './event-input.ts';
import { clientAddress } from '../http/client-address.ts';

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * The client address: the socket's, or with `trustProxy` the one the proxy in front wrote
 * ({@link clientAddress}). Without a trusted proxy the header is ignored, so a client cannot pose
 * as another visitor (beacon rate limits key on it).
 */
export function clientIp(req: http.IncomingMessage, trustProxy: boolean): string | null {
  return clientAddress(req, trustProxy);
}

/** The visit of `req`; `search` is the page URL's query string (without `?`). */
export function visitOf(req: http.IncomingMessage, opts: { trustProxy: boolean; search?: string; referer?: string }): Visit {
  return {
    ip: clientIp(req, opts.trustProxy),
    userAgent: (first(req.headers['user-agent']) ?? '').slice(0, 512),
    referer: opts.referer ?? first(req.headers.referer),
    host: (first(req.headers.host) ?? '').toLowerCase(),
    search: opts.search,
    headers: req.headers,
  };
}

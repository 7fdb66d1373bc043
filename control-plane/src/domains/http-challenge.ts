/**
 * What the site server's plain-HTTP listener answers before any site: the CA's HTTP-01 requests
 * (`/.well-known/acme-challenge/<token>`, from the challenges stored by acme-order.ts, for the
 * host they were made for only), and, once a host has a live certificate, a 308 to the same URL
 * over HTTPS. Challenges stay on HTTP whatever the host's certificate (a renewal needs them).
 */
import type http from 'node:http';
import type { Models } from '../db/models/index.ts';
import { normalizeHost } from '../sites/host-project.ts';
import type { CertificateContexts } from './certificate-contexts.ts';

export const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
/** ACME tokens are base64url (RFC 8555 §8.1); anything else is no token of ours. */
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export interface HttpChallengeOptions {
  m: Models;
  contexts: CertificateContexts;
  /** The HTTPS port visitors reach (SITE_HTTPS_PUBLIC_PORT, else the listener's); 443 is left out of URLs. */
  httpsPort: () => number;
}

/** The handler: true when it answered. */
export function httpChallenge(opts: HttpChallengeOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const host = normalizeHost(req.headers.host);
    if (url.pathname.startsWith(CHALLENGE_PREFIX)) {
      const token = url.pathname.slice(CHALLENGE_PREFIX.length);
      const challenge = TOKEN.test(token) ? await opts.m.AcmeChallenge.findOne({ _id: token, hostname: host }, { key_authorization: 1 }).lean() : null;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.statusCode = challenge ? 200 : 404;
      res.end(challenge ? challenge.key_authorization : 'No such challenge.\n');
      return true;
    }
    if (!host || !await opts.contexts.isLive(host)) return false;
    const port = opts.httpsPort();
    res.statusCode = 308;
    // Revalidated: if the domain is removed, browsers must not keep sending visitors to HTTPS.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Location', `https://${host}${port === 443 ? '' : `:${port}`}${url.pathname}${url.search}`);
    res.end();
    return true;
  };
}

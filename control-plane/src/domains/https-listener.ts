/**
 * The site server's HTTPS listener: the same request handler as the HTTP one, with each custom
 * domain's certificate chosen by SNI (certificate-contexts.ts). A handshake for a host without a
 * live certificate (a platform subdomain, an unverified or removed domain, no SNI) is refused.
 * A request whose Host is not the name its connection was opened for is answered 421 (RFC 9110
 * §15.5.20): one customer's certificate never carries another site's pages.
 */
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { listen } from '../http/listen.ts';
import { normalizeHost } from '../sites/host-project.ts';
import type { CertificateContexts } from './certificate-contexts.ts';

export interface HttpsListener { port: number; close(): Promise<void> }

export async function startHttpsListener(opts: { host: string; port: number; contexts: CertificateContexts; handle: http.RequestListener }): Promise<HttpsListener> {
  const server = https.createServer({ SNICallback: opts.contexts.SNICallback, minVersion: 'TLSv1.2' }, (req, res) => {
    const servername = (req.socket as TLSSocket).servername;
    if (!servername || normalizeHost(req.headers.host) !== normalizeHost(servername)) {
      res.statusCode = 421;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('This connection is not for that host.\n');
      return;
    }
    opts.handle(req, res);
  });
  // A refused handshake is the expected answer to a host without a certificate, not an error to report.
  server.on('tlsClientError', () => {});
  await listen(server, opts.port, opts.host, 'SITE_HTTPS_PORT');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

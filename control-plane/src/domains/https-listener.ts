/**
 * The site server's HTTPS listener: the same request handler as the HTTP one, with each custom
 * domain's certificate chosen by SNI (certificate-contexts.ts). A handshake for a host without a
 * live certificate (a platform subdomain, an unverified or removed domain, no SNI) is refused.
 */
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '../http/listen.ts';
import type { CertificateContexts } from './certificate-contexts.ts';

export interface HttpsListener { port: number; close(): Promise<void> }

export async function startHttpsListener(opts: { host: string; port: number; contexts: CertificateContexts; handle: http.RequestListener }): Promise<HttpsListener> {
  const server = https.createServer({ SNICallback: opts.contexts.SNICallback, minVersion: 'TLSv1.2' }, opts.handle);
  // A refused handshake is the expected answer to a host without a certificate, not an error to report.
  server.on('tlsClientError', () => {});
  await listen(server, opts.port, opts.host, 'SITE_HTTPS_PORT');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * HTTPS for custom domains, when ACME_DIRECTORY_URL is set: the certificates in use by SNI
 * (certificate-contexts.ts), what the HTTP listener answers first (challenges, the redirect to
 * HTTPS; http-challenge.ts), the HTTPS listener (https-listener.ts) and the scheduler that
 * orders and renews (certificate-scheduler.ts). The platform (platform.ts) starts it beside the
 * site server.
 */
import type http from 'node:http';
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import { certificateContexts, type CertificateContexts } from './certificate-contexts.ts';
import { certificateScheduler, type CertificateScheduler } from './certificate-scheduler.ts';
import { httpChallenge } from './http-challenge.ts';
import { startHttpsListener, type HttpsListener } from './https-listener.ts';

export interface DomainTls {
  contexts: CertificateContexts;
  scheduler: CertificateScheduler;
  /** For the site server's `beforeSites`. */
  beforeSites(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** Starts the HTTPS listener with the sites' handler, then the scheduler. */
  start(handle: http.RequestListener): Promise<void>;
  /** The HTTPS listener's port (0 before `start`). */
  readonly httpsPort: number;
  close(): Promise<void>;
}

export function domainTls(opts: { m: Models; env: Env; now: () => Date; onError?(err: unknown): void }): DomainTls {
  const { m, env } = opts;
  const contexts = certificateContexts({ m, now: opts.now });
  const scheduler = certificateScheduler({ m, env, now: opts.now, onChange: (host) => contexts.forget(host), onError: opts.onError });
  let listener: HttpsListener | undefined;
  return {
    contexts, scheduler,
    beforeSites: httpChallenge({ m, contexts, httpsPort: () => env.SITE_HTTPS_PUBLIC_PORT ?? listener?.port ?? env.SITE_HTTPS_PORT }),
    async start(handle) {
      listener = await startHttpsListener({ host: env.SITE_HOST, port: env.SITE_HTTPS_PORT, contexts, handle });
      scheduler.start();
    },
    get httpsPort() { return listener?.port ?? 0; },
    async close() {
      await scheduler.stop();
      await listener?.close();
    },
  };
}

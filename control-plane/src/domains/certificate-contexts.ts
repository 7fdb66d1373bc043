/**
 * The certificate the HTTPS listener presents for a host (its SNI callback), and whether a host
 * has one live (HTTP then redirects to HTTPS). A certificate is used only while its hostname is a
 * verified domain of the project it was issued for and it has not expired: both are read from
 * the database at each TLS handshake, so a removed domain's certificate is no longer presented
 * from the next handshake on, and a renewal made by any replica is presented from its next
 * handshake on, without a restart. Parsed secure contexts are kept per serial number.
 */
import tls from 'node:tls';
import type { Models } from '../db/models/index.ts';
import { openSecret } from '../secrets/secret-box.ts';
import { normalizeHost } from '../sites/host-project.ts';
import { CERT_KEY_PURPOSE } from './certificate-scheduler.ts';

/** How long "this host has a live certificate" is remembered for the HTTP redirect. */
const LIVE_TTL_MS = 2_000;

export interface CertificateContexts {
  /** For `https.createServer({ SNICallback })`: the host's certificate, or a refused handshake. */
  SNICallback(servername: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void): void;
  /** Whether `host` has a certificate in use (remembered for 2 s, or until {@link forget}). */
  isLive(host: string): Promise<boolean>;
  /** Drops what is remembered of `host` (its certificate changed in this process). */
  forget(host: string): void;
}

interface Usable { serial: string; certPem: string; keySealed: string }

export function certificateContexts(opts: { m: Models; now: () => Date }): CertificateContexts {
  const { m } = opts;
  const contexts = new Map<string, { serial: string; context: tls.SecureContext }>();
  const live = new Map<string, { live: boolean; at: number }>();

  async function usable(host: string): Promise<Usable | undefined> {
    if (!host) return undefined;
    const cert = await m.Certificate.findById(host, { project_id: 1, cert_pem: 1, key_sealed: 1, serial: 1, not_after: 1 }).lean();
    if (!cert?.cert_pem || !cert.key_sealed || !cert.serial || !cert.not_after || cert.not_after <= opts.now()) return undefined;
    if (!await m.Domain.exists({ hostname: host, project_id: cert.project_id, status: 'verified' })) return undefined;
    return { serial: cert.serial, certPem: cert.cert_pem, keySealed: cert.key_sealed };
  }

  async function contextFor(host: string): Promise<tls.SecureContext | undefined> {
    const cert = await usable(host);
    if (!cert) { contexts.delete(host); return undefined; }
    const kept = contexts.get(host);
    if (kept?.serial === cert.serial) return kept.context;
    const context = tls.createSecureContext({ cert: cert.certPem, key: await openSecret(m, CERT_KEY_PURPOSE, cert.keySealed) });
    contexts.set(host, { serial: cert.serial, context });
    return context;
  }

  return {
    SNICallback(servername, cb) {
      contextFor(normalizeHost(servername)).then(
        (context) => (context ? cb(null, context) : cb(new Error('no certificate for this host'))),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    },
    async isLive(host) {
      const h = normalizeHost(host);
      const hit = live.get(h);
      if (hit && Date.now() - hit.at < LIVE_TTL_MS) return hit.live;
      const answer = (await usable(h)) !== undefined;
      live.set(h, { live: answer, at: Date.now() });
      return answer;
    },
    forget(host) {
      live.delete(host);
      contexts.delete(host);
    },
  };
}

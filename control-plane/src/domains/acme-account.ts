/**
 * The platform's ACME account at the configured directory (ACME_DIRECTORY_URL): its key is made
 * once, sealed in the database (models/certificate.ts), and shared by every replica, so the
 * account, its orders and its rate limits are one. The ACME client reaches that directory and the
 * URLs it names only.
 */
import https from 'node:https';
import * as acme from 'acme-client';
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import { AppError } from '../errors.ts';
import { openSecret, sealSecret } from '../secrets/secret-box.ts';

const KEY_PURPOSE = 'acme-account-key';

/**
 * acme-client's requests all go through its own axios instance: trust ACME_DIRECTORY_CA for the
 * directory's HTTPS (a test CA), and retry a failed request twice (after 3 and 6 s) instead of
 * five times over 75 s: the scheduler retries a failed order with its own backoff.
 */
function configureAcmeHttp(env: Pick<Env, 'ACME_DIRECTORY_CA'>): void {
  if (env.ACME_DIRECTORY_CA) acme.axios.defaults.httpsAgent = new https.Agent({ ca: env.ACME_DIRECTORY_CA, keepAlive: false });
  const settings = (acme.axios.defaults as { acmeSettings?: { retryMaxAttempts: number; retryDefaultDelay: number } }).acmeSettings;
  if (settings) Object.assign(settings, { retryMaxAttempts: 2, retryDefaultDelay: 3 });
}

/**
 * Reads the directory once before an order. acme-client reports a CA it cannot connect to as a
 * TypeError of its own (the connection error is lost), so an unreachable CA is told apart here:
 * 502 `acme_unreachable`.
 */
async function reachDirectory(env: Pick<Env, 'ACME_DIRECTORY_URL' | 'ACME_DIRECTORY_CA'>): Promise<void> {
  const reached = await new Promise<boolean>((resolve) => {
    const req = https.get(env.ACME_DIRECTORY_URL!, { ca: env.ACME_DIRECTORY_CA, timeout: 20_000 }, (res) => { res.resume(); resolve(res.statusCode === 200); });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
  if (!reached) throw new AppError(502, 'acme_unreachable', `The ACME directory ${env.ACME_DIRECTORY_URL} could not be read`);
}

/** The account key for `directoryUrl`, made and stored on first use; the first writer wins a race between replicas. */
async function accountKey(m: Models, directoryUrl: string): Promise<string> {
  const stored = await m.AcmeAccount.findById(directoryUrl).lean();
  if (stored) return openSecret(m, KEY_PURPOSE, stored.key_sealed);
  const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString('utf8');
  await m.AcmeAccount.updateOne({ _id: directoryUrl }, { $setOnInsert: { key_sealed: await sealSecret(m, KEY_PURPOSE, key), created_at: new Date() } }, { upsert: true });
  const winner = await m.AcmeAccount.findById(directoryUrl).lean();
  return openSecret(m, KEY_PURPOSE, winner!.key_sealed);
}

/**
 * An ACME client with the platform's account, registered at the CA (terms of service agreed,
 * ACME_CONTACT_EMAIL as contact) the first time. Only called with ACME_DIRECTORY_URL set; an
 * unreachable directory is 502 `acme_unreachable`.
 */
export async function acmeClientFor(m: Models, env: Pick<Env, 'ACME_DIRECTORY_URL' | 'ACME_CONTACT_EMAIL' | 'ACME_DIRECTORY_CA'>): Promise<acme.Client> {
  const directoryUrl = env.ACME_DIRECTORY_URL!;
  configureAcmeHttp(env);
  await reachDirectory(env);
  const stored = await m.AcmeAccount.findById(directoryUrl, { url: 1 }).lean();
  // Waiting for the CA to validate and issue: polled for about 80 s (a loaded CA can be slow);
  // past that the order fails and the scheduler tries again with its own backoff.
  const client = new acme.Client({ directoryUrl, accountKey: await accountKey(m, directoryUrl), accountUrl: stored?.url ?? undefined, backoffAttempts: 20, backoffMin: 500, backoffMax: 5_000 });
  if (!stored?.url) {
    await client.createAccount({ termsOfServiceAgreed: true, ...(env.ACME_CONTACT_EMAIL ? { contact: [`mailto:${env.ACME_CONTACT_EMAIL}`] } : {}) });
    await m.AcmeAccount.updateOne({ _id: directoryUrl }, { $set: { url: client.getAccountUrl() } });
  }
  return client;
}

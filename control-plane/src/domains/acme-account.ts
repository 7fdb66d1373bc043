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
import { openSecret, sealSecret } from '../secrets/secret-box.ts';

const KEY_PURPOSE = 'acme-account-key';

/** Trusts ACME_DIRECTORY_CA for the directory's HTTPS (a test CA); acme-client's requests all go through its own axios instance. */
function trustDirectoryCa(env: Pick<Env, 'ACME_DIRECTORY_CA'>): void {
  if (env.ACME_DIRECTORY_CA) acme.axios.defaults.httpsAgent = new https.Agent({ ca: env.ACME_DIRECTORY_CA, keepAlive: false });
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
 * ACME_CONTACT_EMAIL as contact) the first time. Only called with ACME_DIRECTORY_URL set.
 */
export async function acmeClientFor(m: Models, env: Pick<Env, 'ACME_DIRECTORY_URL' | 'ACME_CONTACT_EMAIL' | 'ACME_DIRECTORY_CA'>): Promise<acme.Client> {
  const directoryUrl = env.ACME_DIRECTORY_URL!;
  trustDirectoryCa(env);
  const stored = await m.AcmeAccount.findById(directoryUrl, { url: 1 }).lean();
  // Short retries: a failed order is retried by the scheduler with its own backoff.
  const client = new acme.Client({ directoryUrl, accountKey: await accountKey(m, directoryUrl), accountUrl: stored?.url ?? undefined, backoffAttempts: 10, backoffMin: 500, backoffMax: 5_000 });
  if (!stored?.url) {
    await client.createAccount({ termsOfServiceAgreed: true, ...(env.ACME_CONTACT_EMAIL ? { contact: [`mailto:${env.ACME_CONTACT_EMAIL}`] } : {}) });
    await m.AcmeAccount.updateOne({ _id: directoryUrl }, { $set: { url: client.getAccountUrl() } });
  }
  return client;
}

/**
 * One certificate order over ACME (RFC 8555) for one hostname, answered by HTTP-01: the key
 * authorization is stored in the database (any replica's site server answers the CA's request at
 * `/.well-known/acme-challenge/<token>`, http-challenge.ts), the challenge is announced, and once
 * the CA has fetched it the order is finalized with a new P-256 key and the chain downloaded.
 */
import { X509Certificate } from 'node:crypto';
import * as acme from 'acme-client';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { failureReason, type AcmeProblem } from './failure-reason.ts';

/** How long a stored challenge answer is kept at most (the order removes it when it ends). */
const CHALLENGE_TTL_MS = 24 * 3600_000;

export interface IssuedCertificate { certPem: string; keyPem: string; serial: string; notBefore: Date; notAfter: Date }

/** The problem the CA recorded on the authorization's HTTP-01 challenge, if any. */
async function challengeProblem(client: acme.Client, order: acme.Order, authzUrl: string): Promise<AcmeProblem | undefined> {
  const authz = (await client.getAuthorizations(order).catch(() => [])).find((a) => a.url === authzUrl);
  return authz?.challenges.find((c) => c.type === 'http-01')?.error as AcmeProblem | undefined;
}

/** The problem an acme-client error carries: the CA's problem document when it answered one. */
function problemOf(err: unknown): AcmeProblem | undefined {
  const data = (err as { response?: { data?: AcmeProblem } } | null)?.response?.data;
  if (data && typeof data === 'object' && typeof data.type === 'string') return data;
  return undefined;
}

/** A failed order: 502 `certificate_order_failed` whose message is the reason in people's words. */
const orderFailed = (hostname: string, problem: AcmeProblem | undefined, cause: unknown) =>
  new AppError(502, 'certificate_order_failed', failureReason(hostname, problem), { cause });

/**
 * Orders a certificate for `hostname` (the caller has checked it is a verified domain). Throws
 * `certificate_order_failed` with the reason in people's words.
 */
export async function orderCertificate(m: Models, client: acme.Client, hostname: string, now: () => Date): Promise<IssuedCertificate> {
  let order: acme.Order;
  try {
    order = await client.createOrder({ identifiers: [{ type: 'dns', value: hostname }] });
  } catch (err) {
    throw orderFailed(hostname, problemOf(err), err);
  }
  try {
    for (const authz of await client.getAuthorizations(order)) {
      if (authz.status === 'valid') continue;
      const challenge = authz.challenges.find((c) => c.type === 'http-01');
      if (!challenge) throw orderFailed(hostname, { type: 'urn:ietf:params:acme:error:rejectedIdentifier' }, new Error('no http-01 challenge offered'));
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      await m.AcmeChallenge.updateOne({ _id: challenge.token }, { $set: { hostname, key_authorization: keyAuthorization, expires_at: new Date(now().getTime() + CHALLENGE_TTL_MS) } }, { upsert: true });
      try {
        await client.completeChallenge(challenge);
        await client.waitForValidStatus(challenge);
      } catch (err) {
        throw orderFailed(hostname, (await challengeProblem(client, order, authz.url)) ?? problemOf(err), err);
      } finally {
        await m.AcmeChallenge.deleteOne({ _id: challenge.token });
      }
    }
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    const [, csr] = await acme.crypto.createCsr({ commonName: hostname, altNames: [hostname] }, key);
    const finalized = await client.finalizeOrder(order, csr);
    const certPem = await client.getCertificate(await client.waitForValidStatus(finalized));
    const leaf = new X509Certificate(certPem);
    if (!leaf.checkHost(hostname)) throw orderFailed(hostname, { detail: `the certificate issued does not name ${hostname}` }, new Error('hostname mismatch'));
    return { certPem, keyPem: key.toString('utf8'), serial: leaf.serialNumber, notBefore: new Date(leaf.validFrom), notAfter: new Date(leaf.validTo) };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw orderFailed(hostname, problemOf(err), err);
  }
}

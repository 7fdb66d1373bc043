/**
 * Proof that a project's owner controls a custom domain, by either of:
 *
 * - a DNS TXT record `_folio-challenge.<hostname>` holding `folio-verify=<token>`, looked up
 *   through the servers in DNS_RESOLVER (`host` or `host:port`, comma-separated; default the
 *   system's resolvers);
 * - a file at `http://<hostname>/.well-known/folio-verify.txt` whose body is the token, fetched
 *   with the SSRF-safe fetcher (public addresses only, 4 KB, 5 s).
 */
import { Resolver } from 'node:dns/promises';
import type { Env } from '../env.ts';
import { safeFetch } from '../outbound/safe-fetch.ts';

export const TXT_PREFIX = '_folio-challenge';
export const HTTP_PATH = '/.well-known/folio-verify.txt';

/** What the customer publishes for `hostname`. */
export function verificationOf(hostname: string, token: string) {
  return { txt_name: `${TXT_PREFIX}.${hostname}`, txt_value: `folio-verify=${token}`, http_path: HTTP_PATH, http_body: token };
}

/** The DNS resolver DNS_RESOLVER names (or the system's). */
export function dnsResolver(env: Env): Resolver {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (env.DNS_RESOLVER) resolver.setServers(env.DNS_RESOLVER.split(',').map((s) => s.trim()).filter(Boolean));
  return resolver;
}

export type VerificationResult = { verified: true; method: 'dns' | 'http' } | { verified: false; dns: string; http: string };

/** The DNS TXT check alone (SSO email domains use only this): undefined when the record holds the token, else why not. */
export async function checkDns(env: Env, hostname: string, token: string): Promise<string | undefined> {
  const { txt_name, txt_value } = verificationOf(hostname, token);
  try {
    const records = (await dnsResolver(env).resolveTxt(txt_name)).map((chunks) => chunks.join(''));
    return records.includes(txt_value) ? undefined : `TXT ${txt_name} has ${records.length} record(s), none is ${txt_value}`;
  } catch (err: any) {
    return `no TXT record at ${txt_name} (${err?.code ?? 'lookup failed'})`;
  }
}

async function checkHttp(hostname: string, token: string): Promise<string | undefined> {
  const url = `http://${hostname}${HTTP_PATH}`;
  try {
    const body = (await safeFetch(url, { field: 'http', maxBytes: 4096, timeoutMs: 5_000 })).toString('utf8').trim();
    return body === token ? undefined : `${url} does not hold the token`;
  } catch (err: any) {
    return `${url} could not be read: ${String(err?.message ?? err).replace(/^http: /, '')}`;
  }
}

/** Checks both methods; verified when either holds. */
export async function verifyDomain(env: Env, hostname: string, token: string): Promise<VerificationResult> {
  const dns = await checkDns(env, hostname, token);
  if (!dns) return { verified: true, method: 'dns' };
  const http = await checkHttp(hostname, token);
  if (!http) return { verified: true, method: 'http' };
  return { verified: false, dns, http };
}

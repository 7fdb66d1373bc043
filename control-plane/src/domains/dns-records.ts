/**
 * The DNS records a customer creates for a custom domain, as the dashboard shows them: a CNAME
 * to DOMAIN_CNAME_TARGET for a subdomain (`docs.example.com`), or A/AAAA records with
 * DOMAIN_APEX_ADDRESSES for an apex (`example.com`, which cannot hold a CNAME; the registrable
 * domain is found with the Public Suffix List, so `example.co.uk` is an apex too). Without
 * configured addresses an apex is told to use an ALIAS/ANAME record to the CNAME target.
 */
import { isIPv4 } from 'node:net';
import { parse } from 'tldts';
import type { Env } from '../env.ts';

export interface DnsRecord { type: 'CNAME' | 'A' | 'AAAA' | 'ALIAS'; name: string; value: string }

/** Where a domain's DNS points and the records to create. */
export interface DnsSetup { kind: 'subdomain' | 'apex'; records: DnsRecord[] }

/** The CNAME target: DOMAIN_CNAME_TARGET, else SITES_DOMAIN. */
export const cnameTarget = (env: Pick<Env, 'DOMAIN_CNAME_TARGET' | 'SITES_DOMAIN'>): string => env.DOMAIN_CNAME_TARGET ?? env.SITES_DOMAIN.toLowerCase();

export function dnsSetupFor(env: Pick<Env, 'DOMAIN_CNAME_TARGET' | 'DOMAIN_APEX_ADDRESSES' | 'SITES_DOMAIN'>, hostname: string): DnsSetup {
  const { domain } = parse(hostname, { allowPrivateDomains: false });
  const target = cnameTarget(env);
  if (domain !== hostname) return { kind: 'subdomain', records: [{ type: 'CNAME', name: hostname, value: target }] };
  const addresses = env.DOMAIN_APEX_ADDRESSES;
  if (addresses.length === 0) return { kind: 'apex', records: [{ type: 'ALIAS', name: hostname, value: target }] };
  return { kind: 'apex', records: addresses.map((a) => ({ type: isIPv4(a) ? 'A' as const : 'AAAA' as const, name: hostname, value: a })) };
}

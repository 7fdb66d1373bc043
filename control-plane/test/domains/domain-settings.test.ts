/**
 * The settings custom domains read (their exact rejections), the DNS records the dashboard shows
 * for a subdomain and an apex, and the words a failed order is shown with.
 */
import t from 'tap';
import { dnsSetupFor } from '../../src/domains/dns-records.ts';
import { failureReason } from '../../src/domains/failure-reason.ts';
import { nextAttemptAfter } from '../../src/domains/certificate-scheduler.ts';
import { parseEnv } from '../../src/env.ts';

const errorOf = (vars: Record<string, string>) => {
  try { parseEnv(vars); return undefined; } catch (err) { return (err as Error).message; }
};

t.test('custom domain settings', async (t) => {
  t.test('should refuse bad values with one line per variable', async (t) => {
    t.equal(errorOf({ ACME_DIRECTORY_URL: 'http://acme.example/dir' }), 'Invalid environment:\nACME_DIRECTORY_URL: must be an https:// URL (an ACME directory)');
    t.equal(errorOf({ ACME_DIRECTORY_URL: 'not a url' }), 'Invalid environment:\nACME_DIRECTORY_URL: must be an https:// URL (an ACME directory)');
    t.equal(errorOf({ ACME_CONTACT_EMAIL: 'ops' }), 'Invalid environment:\nACME_CONTACT_EMAIL: must be an email address');
    t.equal(errorOf({ ACME_DIRECTORY_CA: '/nowhere/ca.pem' }), 'Invalid environment:\nACME_DIRECTORY_CA: Unexpected value that is neither PEM certificate text nor a readable certificate file');
    t.equal(errorOf({ ACME_RENEW_WITHIN_DAYS: '90' }), 'Invalid environment:\nACME_RENEW_WITHIN_DAYS: Too big: expected number to be <=60');
    t.equal(errorOf({ DOMAIN_APEX_ADDRESSES: '203.0.113.10, sites.example.com' }), 'Invalid environment:\nDOMAIN_APEX_ADDRESSES: Unexpected "sites.example.com"; expected IPv4 or IPv6 addresses separated by commas');
    t.equal(errorOf({ DOMAIN_CNAME_TARGET: 'https://sites.example.com' }), 'Invalid environment:\nDOMAIN_CNAME_TARGET: must be a hostname such as sites.example.com');
    t.equal(errorOf({ SITE_HTTPS_PUBLIC_PORT: '0' }), 'Invalid environment:\nSITE_HTTPS_PUBLIC_PORT: Too small: expected number to be >=1');
  });

  t.test('should read good values with their defaults', async (t) => {
    const env = parseEnv({ SITES_DOMAIN: 'Sites.Example.com', DOMAIN_APEX_ADDRESSES: '203.0.113.10, 2001:db8::10' });
    t.same([env.ACME_DIRECTORY_URL, env.ACME_RENEW_WITHIN_DAYS, env.ACME_CHECK_INTERVAL_MS, env.SITE_HTTPS_PORT, env.DOMAIN_APEX_ADDRESSES], [undefined, 30, 3_600_000, 4443, ['203.0.113.10', '2001:db8::10']]);
    t.equal(parseEnv({ ACME_DIRECTORY_CA: '-----BEGIN CERTIFICATE-----\\nAAAA\\n-----END CERTIFICATE-----' }).ACME_DIRECTORY_CA, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----');
  });

  t.test('should show a CNAME for a subdomain and address records for an apex', async (t) => {
    const env = parseEnv({ SITES_DOMAIN: 'Sites.Example.com', DOMAIN_APEX_ADDRESSES: '203.0.113.10,2001:db8::10' });
    t.same(dnsSetupFor(env, 'docs.acme.com'), { kind: 'subdomain', records: [{ type: 'CNAME', name: 'docs.acme.com', value: 'sites.example.com' }] });
    t.same(dnsSetupFor(env, 'acme.co.uk'), { kind: 'apex', records: [{ type: 'A', name: 'acme.co.uk', value: '203.0.113.10' }, { type: 'AAAA', name: 'acme.co.uk', value: '2001:db8::10' }] }, 'the Public Suffix List makes acme.co.uk an apex');
    t.same(dnsSetupFor(parseEnv({ DOMAIN_CNAME_TARGET: 'edge.example.net' }), 'acme.com'), { kind: 'apex', records: [{ type: 'ALIAS', name: 'acme.com', value: 'edge.example.net' }] }, 'without addresses, an ALIAS to the target');
  });

  t.test('should word a failed order for people and back off', async (t) => {
    t.equal(failureReason('docs.acme.com', { type: 'urn:ietf:params:acme:error:caa', detail: 'CAA record forbids' }), 'A CAA record of docs.acme.com forbids the certificate authority to issue for it. Remove that CAA record or add one that allows the platform\'s certificate authority.');
    t.equal(failureReason('docs.acme.com', { type: 'urn:ietf:params:acme:error:dns' }), 'The certificate authority could not find docs.acme.com in DNS. Create the DNS records shown for this domain, then wait for them to spread.');
    t.equal(failureReason('docs.acme.com', undefined), 'The certificate authority could not be reached. The order will be tried again later.');
    const now = new Date('2026-01-01T00:00:00Z');
    t.same([1, 2, 3, 20].map((n) => (nextAttemptAfter(now, n).getTime() - now.getTime()) / 60_000), [5, 10, 20, 24 * 60]);
  });
});

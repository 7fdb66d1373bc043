/**
 * Test helpers for single sign-on: a control plane that may reach the test IdPs on 127.0.0.1
 * (`fetchAllowHosts`) and a DNS stand-in for domain verification, an owner on a team
 * organization with a verified email domain, and a tiny cookie jar that follows redirects the
 * way a browser does, so a sign-in can run through a real IdP without one, and stop anywhere.
 */
import type { AuditAction } from '../../src/db/models/audit-entry.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi, type TestApi } from './api.ts';
import { addUser, dash, signIn, type DashboardAuth } from './dashboard.ts';
import { startDnsStandIn, type DnsStandIn } from './dns-stand-in.ts';

export interface SsoTestApi { api: TestApi; dns: DnsStandIn; allowHosts: string[]; origin: string; close(): Promise<void> }

export async function startSsoTestApi(): Promise<SsoTestApi> {
  const dns = await startDnsStandIn();
  const allowHosts: string[] = [];
  const api = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DNS_RESOLVER: dns.server }), services: { fetchAllowHosts: allowHosts } });
  return { api, dns, allowHosts, origin: new URL(api.url).origin, close: async () => { await api.close(); await dns.close(); } };
}

let counter = 0;

/** A team (or `plan`) organization whose owner verified `domain` (unique per call unless given). */
export async function ssoTenant(t: SsoTestApi, plan: Parameters<TestApi['org']>[0] = 'team', domain = `acme-${process.pid}-${++counter}.test`) {
  const org = await t.api.org(plan);
  const owner = await addUser(t.api, org.id, 'owner', `owner@${domain}`);
  const auth = await signIn(t.api, owner.email);
  if (plan === 'team' || plan === 'enterprise') await verifyDomain(t, auth, domain);
  return { orgId: org.id, owner, auth, domain };
}

/** Claims and verifies `domain` for the signed-in owner's organization through the API. */
export async function verifyDomain(t: SsoTestApi, auth: DashboardAuth, domain: string): Promise<void> {
  const added = await dash(t.api, 'POST', '/sso/domains', { auth, body: { domain } });
  if (added.status !== 201) throw new Error(`add domain: ${added.status} ${added.text}`);
  t.dns.txt.set(added.body.verification.txt_name, [added.body.verification.txt_value]);
  const verified = await dash(t.api, 'POST', `/sso/domains/${domain}/verify`, { auth });
  if (verified.status !== 200) throw new Error(`verify domain: ${verified.status} ${verified.text}`);
}

/** Cookies by name (the test servers all live on 127.0.0.1, where cookies ignore the port anyway). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now());
      if (expired || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined), cookie: this.header() };
    const res = await fetch(url, { ...init, redirect: 'manual', headers });
    this.take(res);
    return res;
  }
}

/** Follows redirects from `url` until `stop(url)` says so (or a non-redirect answer); answers that URL. */
export async function followUntil(jar: CookieJar, url: string, stop: (u: URL) => boolean): Promise<URL> {
  let current = new URL(url);
  for (let i = 0; i < 15; i++) {
    if (stop(current)) return current;
    const res = await jar.fetch(current.href);
    await res.arrayBuffer();
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`${current.href} answered ${res.status} without a redirect`);
    current = new URL(location, current);
  }
  throw new Error('too many redirects');
}

/** `POST /auth/sso/start` with the jar's cookies; answers the response. */
export async function startSso(t: SsoTestApi, jar: CookieJar, email: string): Promise<{ status: number; body: any }> {
  const res = await jar.fetch(`${t.origin}/dashboard/api/auth/sso/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  return { status: res.status, body: await res.json() };
}

/** The audit entries of `orgId` with `action` (order not meaningful: tests run on a frozen clock). */
export async function auditOf(t: SsoTestApi, orgId: string, action: AuditAction) {
  return t.api.cp.m.AuditEntry.find({ org_id: orgId, action }).sort({ at: -1, _id: -1 }).lean();
}

/**
 * Certificates for custom domains, end to end against Pebble (a real ACME server): a verified
 * domain gets one over HTTP-01 answered by the site server, the site is served over HTTPS with
 * it (SNI, trusted through Pebble's root), HTTP redirects once it is live, a renewal within
 * ACME_RENEW_WITHIN_DAYS is presented without a restart, one replica orders at a time, a failed
 * order is recorded in people's words and retried with backoff, an unverified domain gets no
 * order, a removed one's certificate is no longer presented, and another organization cannot see
 * or act on a domain's certificate.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import t from 'tap';
import { certificateScheduler, LEASE_MS } from '../../src/domains/certificate-scheduler.ts';
import type { TestApi } from '../helpers/api.ts';
import { addUser, dash, signIn, type DashboardAuth } from '../helpers/dashboard.ts';
import { startDnsStandIn } from '../helpers/dns-stand-in.ts';
import { planPebble } from '../helpers/pebble.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const DAY_MS = 24 * 3600_000;

/** GET over HTTPS to the site server's HTTPS port with SNI `hostname`, trusting `ca` only. */
function httpsGet(port: number, hostname: string, ca: string, path = '/', hostHeader = hostname): Promise<{ status: number; body: string; serial: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, servername: hostname, headers: { host: hostHeader }, ca, agent: false }, (res) => {
      const serial = (res.socket as tls.TLSSocket).getPeerCertificate().serialNumber;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), serial }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether a TLS handshake with SNI `hostname` is refused (no certificate for it). */
function handshakeRefused(port: number, hostname: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: hostname, rejectUnauthorized: false });
    socket.once('secureConnect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });
}

/** A plain-HTTP request to the site server with `Host: hostname`. */
function httpGet(port: number, hostname: string, path: string): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { host: hostname }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject);
  });
}

t.test('custom domain certificates over ACME', async (t) => {
  const dns = await startDnsStandIn();
  t.teardown(() => dns.close());
  const plan = await planPebble();
  // A day between scheduled checks: orders happen when a verification kicks one, or when the test checks.
  const tp = await startTestPlatform({
    DNS_RESOLVER: dns.server, ACME_DIRECTORY_URL: plan.directoryUrl, ACME_DIRECTORY_CA: plan.caFile, ACME_CONTACT_EMAIL: 'ops@example.com',
    SITE_HTTPS_PORT: '0', ACME_CHECK_INTERVAL_MS: String(DAY_MS),
  });
  t.teardown(() => tp.close());
  const pebble = await plan.start({ httpPort: tp.p.site.port, dnsServer: dns.server });
  t.teardown(() => pebble.close());
  const root = await pebble.rootPem();
  const m = tp.p.cp.m;
  const domainTls = tp.p.tls!;
  const httpsPort = domainTls.httpsPort;
  const sitePort = tp.p.site.port;
  // dash(), addUser() and signIn() need the API's address, its models and a clock.
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const owner = await signIn(api, (await addUser(api, tp.orgId)).email);
  const project = (await tp.api('POST', '/projects', { name: 'Certified', slug: `certified-${process.pid}` })).body;
  await tp.p.store.put(`sites/${project.id}/index.html`, Buffer.from('<h1>Certified docs</h1>'));
  const base = `/projects/${project.id}/domains`;
  const host = (name: string) => `${name}.certified-${process.pid}.example`;

  async function addAndVerify(hostname: string, auth: DashboardAuth = owner) {
    const added = await dash(api, 'POST', base, { auth, body: { hostname } });
    t.equal(added.status, 201, added.text);
    dns.txt.set(`_folio-challenge.${hostname}`, [added.body.verification.txt_value]);
    const verified = await dash(api, 'POST', `${base}/${hostname}/verify`, { auth });
    t.equal(verified.status, 200, verified.text);
    return verified.body;
  }
  async function certificateOf(hostname: string) {
    const list = await dash(api, 'GET', base, { auth: owner });
    return list.body.data.find((d: any) => d.hostname === hostname)?.certificate;
  }
  /** Polls the dashboard until the certificate's status is `status` (an order takes a few round trips to Pebble). */
  async function until(hostname: string, status: string) {
    for (let i = 0; i < 600; i++) {
      const cert = await certificateOf(hostname);
      if (cert?.status === status) return cert;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${hostname} never reached ${status}: ${JSON.stringify(await certificateOf(hostname))}; pebble:\n${pebble.lines.slice(-20).join('\n')}`);
  }
  const docs = host('docs');

  t.test('should issue a certificate for a verified domain and serve the site over HTTPS with it', async (t) => {
    dns.addresses.set(docs, [['127.0.0.1']]);
    const verified = await addAndVerify(docs);
    t.same(verified.dns, { kind: 'subdomain', records: [{ type: 'CNAME', name: docs, value: 'localhost' }] });
    t.not(verified.certificate, null, 'a verified domain has a certificate state');
    const cert = await until(docs, 'issued');
    const record = await m.Certificate.findById(docs).lean();
    t.same(cert, { status: 'issued', issued_at: record!.issued_at!.toISOString(), expires_at: record!.not_after!.toISOString(), last_error: null, next_attempt_at: null });
    t.ok(record!.key_sealed!.startsWith('v1.'), 'the private key is stored sealed');
    t.notOk(record!.key_sealed!.includes('PRIVATE KEY'));
    const page = await httpsGet(httpsPort, docs, root);
    t.same([page.status, page.body, page.serial], [200, '<h1>Certified docs</h1>', record!.serial], 'the site, with the issued certificate, trusted through Pebble\'s root');
    t.equal(await m.AcmeChallenge.countDocuments({ hostname: docs }), 0, 'the challenge answer is removed once the order ends');
    const metrics = await (await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/metrics`)).text();
    t.match(metrics, /^folio_certificates\{status="issued"\} 1$/m, 'counted in /metrics');
    t.match(metrics, /^folio_certificate_soonest_expiry_seconds \d+/m);
  });

  t.test('should redirect HTTP to HTTPS once live, and keep ACME challenges on HTTP', async (t) => {
    const res = await httpGet(sitePort, docs, '/guide?x=1');
    t.same([res.status, res.location], [308, `https://${docs}:${httpsPort}/guide?x=1`]);
    await m.AcmeChallenge.create({ _id: 'tok-en_1', hostname: docs, key_authorization: 'tok-en_1.thumbprint', expires_at: new Date(Date.now() + DAY_MS) });
    t.same(await httpGet(sitePort, docs, '/.well-known/acme-challenge/tok-en_1'), { status: 200, location: undefined, body: 'tok-en_1.thumbprint' });
    t.same(await httpGet(sitePort, host('other'), '/.well-known/acme-challenge/tok-en_1'), { status: 404, location: undefined, body: 'No such challenge.\n' }, 'a challenge answers for its own host only');
    t.same(await httpGet(sitePort, docs, '/.well-known/acme-challenge/..%2F..%2Fetc'), { status: 404, location: undefined, body: 'No such challenge.\n' });
    await m.AcmeChallenge.deleteOne({ _id: 'tok-en_1' });
    t.ok(await handshakeRefused(httpsPort, `${project.slug}.localhost`), 'no certificate is presented for a host without one');
    const fronted = await httpsGet(httpsPort, docs, root, '/', `${project.slug}.localhost`);
    t.same([fronted.status, fronted.body], [421, 'This connection is not for that host.\n'], 'a Host other than the connection\'s name is refused');
  });

  t.test('should renew within the configured days and present the new certificate without a restart', async (t) => {
    const before = (await m.Certificate.findById(docs).lean())!;
    t.same(await domainTls.scheduler.check(new Date()), { issued: [], failed: [] }, 'not due yet');
    const orders = pebble.orders();
    // 29 days before expiry is within the default 30.
    const due = new Date(before.not_after!.getTime() - 29 * DAY_MS);
    t.same(await domainTls.scheduler.check(due), { issued: [docs], failed: [] }, (await m.Certificate.findById(docs).lean())?.last_error ?? 'renewed');
    const after = (await m.Certificate.findById(docs).lean())!;
    t.not(after.serial, before.serial);
    t.equal(pebble.orders(), orders + 1);
    t.equal((await httpsGet(httpsPort, docs, root)).serial, after.serial, 'the renewed certificate is presented by the running listener');
  });

  t.test('should leave a certificate another replica holds the lease on to it', async (t) => {
    const record = (await m.Certificate.findById(docs).lean())!;
    const orders = pebble.orders();
    const due = new Date(record.not_after!.getTime() - DAY_MS);
    // Another replica claimed it at `due` and is ordering.
    const replica = certificateScheduler({ m, env: tp.p.cp.deps.env, now: () => new Date(), owner: 'replica-b' });
    await m.Certificate.updateOne({ _id: docs }, { $set: { lease_owner: 'replica-b', lease_until: new Date(due.getTime() + LEASE_MS), status: 'renewing' } });
    t.same(await domainTls.scheduler.check(due), { issued: [], failed: [] }, 'this replica leaves it');
    t.equal(pebble.orders(), orders, 'no order placed');
    t.same(await replica.check(due), { issued: [], failed: [] }, 'the holder\'s own next check does not take its lease twice');
    // The holder crashed: once its lease lapses, this replica takes over.
    t.same(await domainTls.scheduler.check(new Date(due.getTime() + LEASE_MS + 1000)), { issued: [docs], failed: [] });
    t.equal(pebble.orders(), orders + 1, 'one order placed');
    t.same(await m.Certificate.findById(docs, { lease_owner: 1, lease_until: 1, status: 1 }).lean(), { _id: docs, lease_owner: null, lease_until: null, status: 'issued' }, 'the lease is released');
  });

  t.test('should place no order for an unverified domain', async (t) => {
    const pending = host('pending');
    dns.addresses.set(pending, [['127.0.0.1']]);
    t.equal((await dash(api, 'POST', base, { auth: owner, body: { hostname: pending } })).status, 201);
    // A record left for it (as if by an older version) is dropped, not ordered.
    await m.Certificate.create({ _id: pending, project_id: project.id, org_id: tp.orgId, status: 'pending', next_attempt_at: new Date(0) });
    const orders = pebble.orders();
    t.same(await domainTls.scheduler.check(new Date(Date.now() + 400 * DAY_MS)), { issued: [], failed: [] });
    t.equal(pebble.orders(), orders, 'no order placed');
    t.equal(await m.Certificate.findById(pending), null);
    t.equal(await certificateOf(pending), null, 'the dashboard shows no certificate for a pending domain');
    t.ok(await handshakeRefused(httpsPort, pending));
    const ask = await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/internal/v1/tls/ask?domain=${pending}`);
    t.same([ask.status, await ask.json()], [404, { error: 'not_found', message: `${pending} is not a verified custom domain` }]);
  });

  t.test('should record a failed order in people\'s words and retry it with backoff', async (t) => {
    const broken = host('broken');
    // Verified by TXT, but no address: the CA cannot reach it.
    await addAndVerify(broken);
    const failed = await until(broken, 'failed');
    const record = (await m.Certificate.findById(broken).lean())!;
    t.same(failed, {
      status: 'failed', issued_at: null, expires_at: null,
      // Pebble reports a name that does not resolve as a connection problem (Let's Encrypt as a DNS one).
      last_error: `The certificate authority could not connect to ${broken} on port 80. Check that the DNS records shown for this domain point at this platform and that nothing blocks port 80.`,
      next_attempt_at: new Date(record.failed_at!.getTime() + 5 * 60_000).toISOString(),
    });
    t.equal(record.attempts, 1);
    // A second failure waits twice as long.
    const orders = pebble.orders();
    t.same(await domainTls.scheduler.check(new Date(record.next_attempt_at!.getTime())), { issued: [], failed: [broken] });
    const second = (await m.Certificate.findById(broken).lean())!;
    t.same([second.attempts, second.next_attempt_at!.getTime() - second.failed_at!.getTime()], [2, 10 * 60_000]);
    t.equal(pebble.orders(), orders + 1);
    // The customer fixes DNS and asks for a retry now.
    dns.addresses.set(broken, [['127.0.0.1']]);
    const retried = await dash(api, 'POST', `${base}/${broken}/certificate/retry`, { auth: owner });
    t.equal(retried.status, 200, retried.text);
    t.equal(retried.body.hostname, broken);
    await until(broken, 'issued');
    t.equal((await httpsGet(httpsPort, broken, root)).status, 200);
  });

  t.test('should refuse bad input with exact bodies', async (t) => {
    const origin = tp.p.cp.apiUrl.replace(/\/v1$/, '');
    const ask = async (query: string) => { const r = await fetch(`${origin}/internal/v1/tls/ask${query}`); return [r.status, await r.json()]; };
    t.same(await ask(''), [400, { error: 'invalid_request', message: 'domain: required; expected the hostname a certificate would be for, as ?domain=docs.example.com' }]);
    t.same(await ask('?domain=a.example&domain=b.example'), [400, { error: 'invalid_request', message: 'domain: Unexpected several values; expected one hostname' }]);
    t.same(await ask('?domain=not%20a%20host'), [400, { error: 'invalid_request', message: 'domain: must be a hostname such as docs.example.com' }]);
    t.same(await ask(`?domain=${docs.toUpperCase()}.`), [200, { domain: docs, allowed: true }]);
    const retry = (hostname: string) => dash(api, 'POST', `${base}/${hostname}/certificate/retry`, { auth: owner }).then((r) => [r.status, r.body]);
    t.same(await retry(docs), [409, { error: 'certificate_not_failed', message: `The certificate of ${docs} is issued; it is renewed automatically before it expires` }]);
    t.same(await retry(host('pending')), [409, { error: 'domain_not_verified', message: `${host('pending')} is not verified yet; its certificate is ordered once it is` }]);
    t.same(await retry(host('nowhere')), [404, { error: 'not_found', message: 'domain not found' }]);
  });

  t.test('should describe the DNS records, the certificate and the retry in the dashboard API\'s OpenAPI document', async (t) => {
    const doc = await (await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/dashboard/api/openapi.json`)).json();
    const domain = doc.components.schemas.DashboardDomain;
    t.ok(domain.properties.dns && domain.properties.certificate, 'the domain resource has dns and certificate');
    t.match(JSON.stringify(domain.properties.certificate), /pending.*issued.*renewing.*failed/);
    t.ok(doc.paths['/projects/{id}/domains/{hostname}/certificate/retry']?.post, 'the retry route is described');
  });

  t.test('should keep another organization out of the certificate state', async (t) => {
    const other = await tp.newOrg(`rival-${process.pid}`);
    const rival = await signIn(api, (await addUser(api, other.orgId)).email);
    const list = await dash(api, 'GET', base, { auth: rival });
    t.same([list.status, list.body], [404, { error: 'not_found', message: 'project not found' }]);
    const retry = await dash(api, 'POST', `${base}/${docs}/certificate/retry`, { auth: rival });
    t.same([retry.status, retry.body], [404, { error: 'not_found', message: 'project not found' }]);
    // The rival's own project cannot claim the hostname, so cannot reach its certificate either.
    const theirs = (await tp.api('POST', '/projects', { name: 'Rival', slug: `rival-${process.pid}` }, other.key)).body;
    const claim = await dash(api, 'POST', `/projects/${theirs.id}/domains`, { auth: rival, body: { hostname: docs } });
    t.same([claim.status, claim.body.error], [409, 'domain_taken']);
    const own = await dash(api, 'POST', `/projects/${theirs.id}/domains/${docs}/certificate/retry`, { auth: rival });
    t.same([own.status, own.body], [404, { error: 'not_found', message: 'domain not found' }]);
  });

  t.test('should stop presenting a removed domain\'s certificate', async (t) => {
    t.equal((await dash(api, 'DELETE', `${base}/${docs}`, { auth: owner })).status, 204);
    t.equal(await m.Certificate.findById(docs), null, 'its certificate is dropped');
    t.ok(await handshakeRefused(httpsPort, docs), 'and no longer presented');
    const ask = await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/internal/v1/tls/ask?domain=${docs}`);
    t.equal(ask.status, 404);
  });

  t.test('should stop presenting the certificates of a deleted project and drop them at the next check', async (t) => {
    const broken = host('broken');
    t.equal((await httpsGet(httpsPort, broken, root)).status, 200, 'served before');
    t.equal((await tp.api('DELETE', `/projects/${project.id}`)).status, 204);
    t.ok(await handshakeRefused(httpsPort, broken), 'refused from the next handshake on');
    t.same(await domainTls.scheduler.check(), { issued: [], failed: [] });
    t.equal(await m.Certificate.countDocuments({ project_id: project.id }), 0, 'its records are dropped');
  });
});

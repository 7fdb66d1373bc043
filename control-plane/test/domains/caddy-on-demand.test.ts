/**
 * The edge shape: docker/Caddyfile itself, run by Debian's Caddy in front of the site server,
 * with Pebble as its CA. Caddy asks the control plane's `ask` endpoint before each certificate:
 * a verified custom domain gets one on its first handshake and the site is served through
 * Caddy over HTTPS; an unverified one gets no order and no handshake, until it is verified.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startDnsStandIn } from '../helpers/dns-stand-in.ts';
import { freePort, planPebble } from '../helpers/pebble.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const CADDYFILE = fileURLToPath(new URL('../../../docker/Caddyfile', import.meta.url));

/** GET `/` through Caddy with SNI `hostname`, trusting `ca` only; the error when the handshake fails. */
function viaCaddy(port: number, hostname: string, ca: string): Promise<{ status: number; body: string } | Error> {
  return new Promise((resolve) => {
    const req = https.request({ host: '127.0.0.1', port, path: '/', servername: hostname, headers: { host: hostname }, ca, agent: false, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (err) => resolve(err));
    req.end();
  });
}

t.test('Caddy on-demand TLS in front of the site server', async (t) => {
  const dns = await startDnsStandIn();
  t.teardown(() => dns.close());
  // No ACME_DIRECTORY_URL: the control plane orders nothing; Caddy does.
  const tp = await startTestPlatform({ DNS_RESOLVER: dns.server });
  t.teardown(() => tp.close());
  const plan = await planPebble();
  const [httpPort, httpsPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  // Pebble validates HTTP-01 and TLS-ALPN-01 at Caddy's ports.
  const pebble = await plan.start({ httpPort, tlsPort: httpsPort, dnsServer: dns.server });
  t.teardown(() => pebble.close());
  const root = await pebble.rootPem();

  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-caddy-'));
  const caddy = spawn('caddy', ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home,
      // Caddy (Go) trusts the directory's HTTPS certificate through this file.
      SSL_CERT_FILE: plan.caFile,
      ACME_EMAIL: 'ops@example.com', ACME_CA: plan.directoryUrl, HTTP_PORT: String(httpPort), HTTPS_PORT: String(httpsPort), CADDY_ADMIN: `127.0.0.1:${adminPort}`,
      CONTROL_PLANE: new URL(tp.p.cp.apiUrl).host, SITE_SERVER: new URL(tp.p.site.url).host,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    for (const stream of [caddy.stdout!, caddy.stderr!]) createInterface({ input: stream }).on('line', (line) => { lines.push(line); if (line.includes('serving initial configuration')) resolve(); });
    caddy.once('exit', (code) => reject(new Error(`caddy exited (${code}):\n${lines.join('\n')}`)));
  });
  t.teardown(() => new Promise<void>((resolve) => { caddy.once('exit', () => { fs.rmSync(home, { recursive: true, force: true }); resolve(); }); caddy.kill('SIGTERM'); }));

  const project = (await tp.api('POST', '/projects', { name: 'Edge docs', slug: `edge-${process.pid}` })).body;
  await tp.p.store.put(`sites/${project.id}/index.html`, Buffer.from('<h1>Edge docs</h1>'));
  const verified = `docs.edge-${process.pid}.example`;
  const pending = `pending.edge-${process.pid}.example`;
  await tp.p.cp.m.Domain.create({ hostname: verified, org_id: tp.orgId, project_id: project.id, status: 'verified', verification_token: 'token', verified_at: new Date() });
  await tp.p.cp.m.Domain.create({ hostname: pending, org_id: tp.orgId, project_id: project.id, status: 'pending', verification_token: 'token', expires_at: new Date(Date.now() + 3600_000) });
  for (const h of [verified, pending]) dns.addresses.set(h, [['127.0.0.1']]);

  t.test('should get a certificate for a verified domain on its first handshake and serve the site', async (t) => {
    const res = await viaCaddy(httpsPort, verified, root);
    t.same(res, { status: 200, body: '<h1>Edge docs</h1>' }, res instanceof Error ? `${res.message}\n${lines.slice(-15).join('\n')}` : 'served through Caddy, trusted through Pebble\'s root');
    t.equal(pebble.orders(), 1);
  });

  t.test('should place no order for an unverified domain', async (t) => {
    const res = await viaCaddy(httpsPort, pending, root);
    t.ok(res instanceof Error, 'the handshake fails');
    t.equal(pebble.orders(), 1, 'no order placed');
  });

  t.test('should follow the ask endpoint: once the domain is verified, it gets a certificate', async (t) => {
    await tp.p.cp.m.Domain.updateOne({ hostname: pending }, { $set: { status: 'verified', verified_at: new Date(), expires_at: null } });
    const res = await viaCaddy(httpsPort, pending, root);
    t.same(res, { status: 200, body: '<h1>Edge docs</h1>' }, res instanceof Error ? res.message : 'served');
    t.equal(pebble.orders(), 2);
  });
});

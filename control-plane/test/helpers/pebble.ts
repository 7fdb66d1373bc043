/**
 * Pebble, Let's Encrypt's ACME test server (Debian's `pebble` package, installed by
 * scripts/setup/ensure-test-deps.sh), on free 127.0.0.1 ports for tests. Its directory is served
 * over HTTPS with a certificate made here with openssl (trusted by the ACME client through
 * ACME_DIRECTORY_CA); it validates HTTP-01 challenges at `httpPort` (the site server's HTTP
 * port) and resolves names through `dnsServer` (the DNS stand-in, where the test points its
 * domains at 127.0.0.1). Its root CA, made anew at each start, is read from the management
 * interface. Every request it logs is kept, so a test can count orders (`POST /order-plz`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** A port free now (Pebble takes its ports from its config file, not from 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Pebble's ports and the certificate of its HTTPS listener, chosen before the platform starts (it needs the directory URL). */
export interface PebblePlan {
  directoryUrl: string;
  /** Path of the PEM certificate Pebble's HTTPS listeners present (self-signed, for 127.0.0.1). */
  caFile: string;
  /** `httpPort`/`tlsPort`: where Pebble validates HTTP-01 and TLS-ALPN-01 challenges (tlsPort default: a free port nothing listens on). */
  start(opts: { httpPort: number; tlsPort?: number; dnsServer: string }): Promise<Pebble>;
}

export interface Pebble {
  /** Pebble's root CA (PEM), which signs the certificates it issues. */
  rootPem(): Promise<string>;
  /** How many orders were placed so far. */
  orders(): number;
  lines: string[];
  close(): Promise<void>;
}

function get(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https.get(url, { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${url}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

export async function planPebble(): Promise<PebblePlan> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pebble-'));
  const caFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyFile, '-out', caFile,
    '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  const [acmePort, managementPort, unusedPort] = [await freePort(), await freePort(), await freePort()];
  const ca = fs.readFileSync(caFile, 'utf8');
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    caFile,
    async start({ httpPort, tlsPort = unusedPort, dnsServer }) {
      const config = path.join(dir, 'pebble-config.json');
      fs.writeFileSync(config, JSON.stringify({ pebble: {
        listenAddress: `127.0.0.1:${acmePort}`, managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: caFile, privateKey: keyFile, httpPort, tlsPort, ocspResponderURL: '', externalAccountBindingRequired: false,
      } }));
      // No random sleeps before validating; never reject a good nonce (acme-client retries badNonce, but a test should not need to).
      const child: ChildProcess = spawn('pebble', ['-config', config, '-dnsserver', dnsServer], {
        env: { PATH: process.env.PATH, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines: string[] = [];
      const listening = new Promise<void>((resolve, reject) => {
        for (const stream of [child.stdout!, child.stderr!]) {
          createInterface({ input: stream }).on('line', (line) => {
            lines.push(line);
            if (line.includes('ACME directory available')) resolve();
          });
        }
        child.once('exit', (code) => reject(new Error(`pebble exited (${code}):\n${lines.join('\n')}`)));
        child.once('error', reject);
      });
      await listening;
      return {
        lines,
        rootPem: () => get(`https://127.0.0.1:${managementPort}/roots/0`, ca),
        orders: () => lines.filter((l) => l.includes('POST /order-plz')).length,
        close: () => new Promise<void>((resolve) => {
          if (child.exitCode !== null) { fs.rmSync(dir, { recursive: true, force: true }); resolve(); return; }
          child.once('exit', () => { fs.rmSync(dir, { recursive: true, force: true }); resolve(); });
          child.kill('SIGTERM');
        }),
      };
    },
  };
}

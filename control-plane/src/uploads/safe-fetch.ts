/**
 * Downloads a URL a customer gave us (a logo) without letting it reach our own network:
 * the server-side request forgery guard. The host is resolved here, every address is checked
 * against the public unicast ranges, and the connection goes to the address that was checked
 * (a fixed `lookup`), so a DNS answer that changes between check and connect cannot slip a
 * private address in. Each redirect is a new hop checked the same way.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { AppError, invalid } from '../errors.ts';
import { UPLOAD_LIMIT_BYTES } from '../http/app.ts';

/** Options of `safeFetch`. */
export interface SafeFetchOptions {
  /** Request field the URL came from; every error message starts with it. */
  field: string;
  /** Largest body accepted; default `UPLOAD_LIMIT_BYTES` (2 MB). Larger answers 413. */
  maxBytes?: number;
  /** Budget for the whole download, redirects included; default 10 000 ms. */
  timeoutMs?: number;
  /** Redirects followed at most; default 3. */
  maxRedirects?: number;
  /**
   * `host:port` pairs exempt from the address check, e.g. `['127.0.0.1:8080']`. Default none.
   * Only for tests and single-machine set-ups that serve their own images; the exemption
   * applies to the hop whose URL names that exact host and port, not to where it redirects.
   */
  allowHosts?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_REDIRECTS = 3;

/**
 * Why `address` may not be contacted, or `undefined` when it is public unicast. Refused:
 * loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16, the cloud metadata
 * address included), carrier-grade NAT (100.64/10), 0.0.0.0/8, broadcast, multicast, reserved
 * and documentation ranges, and in IPv6 loopback, unique-local, link-local, multicast and the
 * translation prefixes (NAT64, 6to4, Teredo) that can carry an IPv4 address. An IPv4-mapped
 * IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

function refuse(field: string, rule: string): AppError {
  return invalid(field, rule);
}

/** The hosts (without brackets) an address literal or a DNS name resolves to. */
async function resolve(field: string, host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  try {
    const answers = await dns.promises.lookup(host, { all: true, verbatim: true });
    if (answers.length === 0) throw new Error('no addresses');
    return answers.map((a) => a.address);
  } catch {
    throw refuse(field, `Could not resolve ${host}; expected a host name with a public address`);
  }
}

/** A `lookup` that answers with the one address already checked, whatever it is asked. */
export function pinnedLookup(address: string) {
  const family = address.includes(':') ? 6 : 4;
  return (_host: string, opts: { all?: boolean }, cb: (...args: any[]) => void) => {
    if (opts?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}

interface Hop { status: number; location?: string; body?: Buffer }

function request(field: string, url: URL, address: string, maxBytes: number, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolvePromise, reject) => {
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(address) as any,
      signal,
      headers: { accept: 'image/svg+xml, image/png, image/jpeg, image/webp, image/*;q=0.8', 'user-agent': 'Folio-Fetch/1' },
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolvePromise({ status, location: res.headers.location });
        return;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        reject(refuse(field, `Download failed with HTTP ${status}; expected 200`));
        return;
      }
      const tooLarge = () => new AppError(413, 'payload_too_large', `${field}: Downloaded file exceeds the ${Math.round(maxBytes / 1024 / 1024 * 10) / 10} MB limit`);
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
        reject(tooLarge());
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // Reject before destroying: destroying emits its own errors, which must not win.
        if (size > maxBytes) { reject(tooLarge()); res.destroy(); return; }
        chunks.push(chunk);
      });
      res.on('end', () => resolvePromise({ status, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('response aborted')));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Checks that `url` is http(s) without credentials and that every address its host resolves to
 * is public (unless `host:port` is in `allowHosts`); returns the address to connect to (pass it
 * to `pinnedLookup`). Refusals are 400 `invalid_request` naming `field`.
 */
export async function checkedAddress(url: URL, field: string, allowHosts?: readonly string[]): Promise<string> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(field, `Unexpected URL scheme "${url.protocol}"; expected http or https`);
  }
  if (url.username || url.password) throw refuse(field, 'Unexpected credentials in URL; expected a public URL without user or password');
  // URL has already turned odd IPv4 spellings (0x7f.1, 2130706433, 017700000001) into dotted form.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const addresses = await resolve(field, host);
  const exempt = (allowHosts ?? []).includes(`${url.hostname}:${port}`);
  if (!exempt) {
    const bad = addresses.find((a) => nonPublicRange(a) !== undefined);
    if (bad) throw refuse(field, `URL resolves to a private address (${bad}); only public addresses are allowed`);
  }
  return addresses[0];
}

/**
 * Downloads `rawUrl` (http or https) and returns its body. Every refusal is a 400
 * `invalid_request` naming `opts.field`, e.g.
 * `light: URL resolves to a private address (127.0.0.1); only public addresses are allowed`;
 * a body over `maxBytes` is 413 `payload_too_large`.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<Buffer> {
  const { field } = opts;
  const maxBytes = opts.maxBytes ?? UPLOAD_LIMIT_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    clearTimeout(timer);
    throw refuse(field, 'Unexpected URL; expected an absolute http or https URL');
  }
  try {
    for (let hop = 0; ; hop++) {
      const address = await checkedAddress(url, field, opts.allowHosts);
      let res: Hop;
      try {
        res = await request(field, url, address, maxBytes, controller.signal);
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (controller.signal.aborted) throw refuse(field, `Download timed out after ${timeoutMs / 1000} s`);
        throw refuse(field, `Could not download ${url.origin}; the server did not answer`);
      }
      if (res.body) return res.body;
      if (hop >= maxRedirects) throw refuse(field, `Too many redirects; expected at most ${maxRedirects}`);
      try {
        url = new URL(res.location!, url);
      } catch {
        throw refuse(field, 'Unexpected redirect location; expected an absolute http or https URL');
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Downloads a URL a customer gave us (a logo) without letting it reach our own network:
 * the server-side request forgery guard. The host is resolved here once, every address is
 * checked against the public unicast ranges (public-address.ts, which brings every spelling of
 * an address to one form first), and the connection goes to the address that was checked (a
 * fixed `lookup`, never a second DNS question), so a DNS answer that changes between check and
 * connect cannot slip a private address in. Once connected, the socket's peer address is
 * compared with the checked one (`guardSocket`) before a byte is written. Each redirect is a
 * new hop checked the same way.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { AppError, invalid } from '../errors.ts';
import { UPLOAD_LIMIT_BYTES } from '../http/app.ts';
import { canonicalAddress, nonPublicRange } from './public-address.ts';

export { nonPublicRange };

/** Resolves a host name to its addresses; the default asks the system's resolver (`dns.lookup`). */
export type ResolveHost = (host: string) => Promise<string[]>;

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
  /** How host names are resolved; default the system's resolver. Tests point it at a DNS stand-in. */
  resolveHost?: ResolveHost;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_REDIRECTS = 3;

function refuse(field: string, rule: string): AppError {
  return invalid(field, rule);
}

const systemResolve: ResolveHost = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses (canonical spelling, no brackets) an address literal or a DNS name resolves to. */
async function resolve(field: string, host: string, resolveHost: ResolveHost = systemResolve): Promise<string[]> {
  const literal = canonicalAddress(host);
  if (literal) return [literal];
  let answers: string[];
  try {
    answers = await resolveHost(host);
  } catch {
    answers = [];
  }
  if (answers.length === 0) throw refuse(field, `Could not resolve ${host}; expected a host name with a public address`);
  // An answer that is no address at all stays as it is, so the check names and refuses it.
  return answers.map((a) => (a.includes('%') ? a : canonicalAddress(a) ?? a));
}

/**
 * Destroys the request's socket unless the peer it connected to is `address` (the one checked).
 * Runs before anything queued is written, so a refused peer never receives the request.
 */
export function guardSocket(req: http.ClientRequest, address: string): void {
  const check = (socket: Socket) => {
    const peer = socket.remoteAddress ? canonicalAddress(socket.remoteAddress) : undefined;
    if (peer !== canonicalAddress(address)) socket.destroy(new Error(`connected to ${socket.remoteAddress ?? 'an unknown address'}, not the checked ${address}`));
  };
  req.on('socket', (socket: Socket) => {
    if (socket.remoteAddress && !socket.connecting) check(socket);
    else socket.prependOnceListener('connect', () => check(socket));
  });
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
    guardSocket(req, address);
    req.on('error', reject);
    req.end();
  });
}

/**
 * Checks that `url` is http(s) without credentials and that every address its host resolves to
 * is public (unless `host:port` is in `allowHosts`); returns the address to connect to (pass it
 * to `pinnedLookup` and `guardSocket`). Refusals are 400 `invalid_request` naming `field`.
 */
export async function checkedAddress(url: URL, field: string, allowHosts?: readonly string[], resolveHost?: ResolveHost): Promise<string> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(field, `Unexpected URL scheme "${url.protocol}"; expected http or https`);
  }
  if (url.username || url.password) throw refuse(field, 'Unexpected credentials in URL; expected a public URL without user or password');
  // URL has already turned odd IPv4 spellings (0x7f.1, 2130706433, 017700000001) into dotted
  // form; parseAddress accepts them too, for a host that did not come through URL.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const addresses = await resolve(field, host, resolveHost);
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
      const address = await checkedAddress(url, field, opts.allowHosts, opts.resolveHost);
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

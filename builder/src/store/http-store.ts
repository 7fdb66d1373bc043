/**
 * An `ObjectStore` over the control plane's object routes of one deployment
 * (`/internal/v1/jobs/:id/objects`), so a build publishes without storage credentials. A build
 * writes through upload grants instead (`createGrantedStore`, granted-store.ts), which keeps this
 * store for reads, lists, deletes, and for writes to a control plane without grants. Keys are
 * relative to the site (the control plane confines them to the project's prefix); every request
 * carries the build token and fencing token, so a run that lost its lease writes nothing (409 →
 * `LeaseLostError`).
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { appError, LeaseLostError } from '../errors.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { assertKey, sizedChunks, type ObjectHead, type ObjectStore, type ObjectStream, type PutOptions } from './object-store.ts';

export interface HttpStoreOptions {
  /** Absolute URL of the job's object routes, e.g. `https://api.example.com/internal/v1/jobs/<id>/objects`. */
  url: string;
  /** The job's build token. */
  token: string;
  /** The job's fencing token. */
  fencing: number;
  /** Requests in flight at most; default 16. */
  concurrency?: number;
  /** Time allowed per request; default 60 s. */
  timeoutMs?: number;
}

/** Each segment URL-encoded, slashes kept. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function createHttpStore(opts: HttpStoreOptions): ObjectStore {
  const base = opts.url.replace(/\/$/, '');
  const limit = limitConcurrency(opts.concurrency ?? 16);
  const auth = { authorization: `Bearer ${opts.token}`, 'x-folio-fencing': String(opts.fencing) };

  async function send(method: string, path: string): Promise<Response> {
    return limit(async () => {
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, { method, headers: auth, signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000) });
      } catch (err) {
        throw appError('store_unreachable', `The control plane did not answer ${method} ${path}`, err);
      }
      if (res.status === 409) { await res.body?.cancel(); throw new LeaseLostError(); }
      if (res.status >= 400 && res.status !== 404) {
        throw appError('store_error', `The control plane answered ${res.status} to ${method} ${path}: ${await res.text()}`);
      }
      return res;
    });
  }

  const keyPath = (key: string) => { assertKey(key); return `/${encodeKey(key)}`; };

  /**
   * Uploads go through `node:http`, not `fetch`: fetch copies a byte body before sending it (the
   * Fetch standard's "extract a body"), and at 10,000 pages each edit uploads a 55 MB
   * `llms-full.txt`: the copy, its fresh memory and undici's writes cost the build process ~0.9 s
   * of CPU per edit, measured. Same errors as `send`.
   */
  async function upload(path: string, body: Uint8Array | ObjectStream, headers: Record<string, string>): Promise<void> {
    return limit(async () => {
      let answer: { status: number; text: string };
      try {
        answer = await putBytes(`${base}${path}`, { ...auth, ...headers }, body, opts.timeoutMs ?? 60_000);
      } catch (err) {
        throw appError('store_unreachable', `The control plane did not answer PUT ${path}`, err);
      }
      if (answer.status === 409) throw new LeaseLostError();
      if (answer.status >= 400) throw appError('store_error', `The control plane answered ${answer.status} to PUT ${path}: ${answer.text}`);
    });
  }

  return {
    put: async (key, bytes, putOpts) => upload(keyPath(key), bytes, putHeaders(putOpts)),
    putStream: async (key, body, putOpts) => upload(keyPath(key), body, putHeaders(putOpts)),
    async get(key) {
      const res = await send('GET', keyPath(key));
      if (res.status === 404) { await res.body?.cancel(); return undefined; }
      return new Uint8Array(await res.arrayBuffer());
    },
    async head(key): Promise<ObjectHead | undefined> {
      const res = await send('HEAD', keyPath(key));
      if (res.status === 404) return undefined;
      const etag = (res.headers.get('etag') ?? '').replace(/^W\//, '').replace(/"/g, '');
      const contentType = res.headers.get('x-folio-content-type') ?? undefined;
      return { etag, size: Number(res.headers.get('x-folio-size') ?? 0), ...(contentType ? { contentType } : {}) };
    },
    async list(prefix) {
      const res = await send('GET', prefix ? `?prefix=${encodeURIComponent(prefix)}` : '');
      return ((await res.json()) as { keys: string[] }).keys;
    },
    async delete(keys) {
      await Promise.all(keys.map(async (key) => {
        const res = await send('DELETE', keyPath(key));
        await res.body?.cancel();
      }));
    },
    // A build never copies: preserving objects for a rollback is the control plane's, which holds
    // the real store (deploy/publish-rollback.ts). The job routes offer no copy a build could misuse.
    async copy(from) {
      assertKey(from);
      throw appError('store_unsupported', 'Unexpected copy through the job object routes; expected puts, gets, heads, lists and deletes only');
    },
  };
}

function putHeaders(putOpts: PutOptions = {}): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (putOpts.contentType) headers['x-folio-content-type'] = putOpts.contentType;
  if (putOpts.cacheControl) headers['x-folio-cache-control'] = putOpts.cacheControl;
  return headers;
}

/** PUTs `body` to `url` as it is (no copy); resolves with the answer's status and text. */
export function putBytes(url: string, headers: Record<string, string>, body: Uint8Array | ObjectStream, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const size = body instanceof Uint8Array ? body.byteLength : body.size;
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'PUT', headers: { ...headers, 'content-length': String(size) }, signal: AbortSignal.timeout(timeoutMs),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    request.on('error', reject);
    if (body instanceof Uint8Array) request.end(body);
    else pipeline(Readable.from(sizedChunks(body)), request).catch(reject);
  });
}

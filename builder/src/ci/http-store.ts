/**
 * An `ObjectStore` over the control plane's object routes of one CI deployment
 * (`/internal/v1/jobs/:id/objects`), so a CI run publishes without storage credentials. Keys are
 * relative to the site (the control plane confines them to the project's prefix); every request
 * carries the build token and fencing token, so a run that lost its lease writes nothing (409 →
 * `LeaseLostError`).
 */
import { appError } from '../errors.ts';
import { limitConcurrency } from '../store/limit-concurrency.ts';
import { assertKey, type ObjectHead, type ObjectStore } from '../store/object-store.ts';
import { LeaseLostError } from '../worker/control-plane-client.ts';

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

  async function send(method: string, path: string, init: { body?: Uint8Array; headers?: Record<string, string> } = {}): Promise<Response> {
    return limit(async () => {
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method, headers: { ...auth, ...init.headers }, body: init.body as BodyInit | undefined,
          signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
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

  return {
    async put(key, bytes, putOpts = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
      if (putOpts.contentType) headers['x-folio-content-type'] = putOpts.contentType;
      if (putOpts.cacheControl) headers['x-folio-cache-control'] = putOpts.cacheControl;
      const res = await send('PUT', keyPath(key), { body: bytes, headers });
      await res.body?.cancel();
    },
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
  };
}

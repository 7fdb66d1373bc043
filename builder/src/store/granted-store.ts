/**
 * The object store a build publishes through: the control plane's job object routes
 * (`createHttpStore`) for reads, lists and deletes, and upload grants for writes
 * (upload-grant-protocol.ts). Puts are collected for `BATCH_WAIT_MS` and granted up to 256 at a
 * time by `POST /internal/v1/jobs/:id/uploads` (at most 256 puts hold a grant at once, so grants,
 * which last seconds, are asked for shortly before their upload); each object's bytes then go
 * straight to the URL granted (a presigned S3 PUT, or the control plane's signed local upload
 * route), `concurrency` at a time, so no byte passes through the control plane's API when the
 * store is S3.
 *
 * - A grant that is about to expire when its upload's turn comes is renewed first; a grant the
 *   store refuses (403: expired, or the store's clock ahead) is renewed once and the put retried
 *   (bytes only: a stream cannot be sent twice).
 * - A lost lease is still `LeaseLostError` (409 from the grants route).
 * - A control plane without the grants route (404: an older one) is published to through its
 *   object routes' PUT, as before, for the rest of the build.
 */
import { appError, LeaseLostError } from '../errors.ts';
import { cacheControlFor, contentTypeFor } from './content-type.ts';
import { createHttpStore, putBytes, type HttpStoreOptions } from './http-store.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { assertKey, type ObjectStore, type ObjectStream, type PutOptions } from './object-store.ts';
import { grantAnswer, MAX_GRANTS_PER_REQUEST, type GrantRequest } from './upload-grant-protocol.ts';

/** How long puts are collected before their grants are asked for together. */
const BATCH_WAIT_MS = 5;
/** A grant with less life left than this when its upload starts is renewed first. */
const RENEW_MARGIN_MS = 2_000;

export interface GrantedStoreOptions extends HttpStoreOptions {
  /** The job's grants route; default: `url` with its last segment `objects` replaced by `uploads`. */
  grantsUrl?: string;
}

type Wanted = GrantRequest['objects'][number];
interface Grant { url: string; headers: Record<string, string>; expiresAt: number }

export function createGrantedStore(opts: GrantedStoreOptions): ObjectStore {
  const objects = createHttpStore(opts);
  const grantsUrl = opts.grantsUrl ?? opts.url.replace(/\/objects\/?$/, '/uploads');
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const limit = limitConcurrency(opts.concurrency ?? 16);
  // Puts holding a grant (asked for, or waiting for their upload's turn) at most: a grant is asked
  // for shortly before its upload, so it rarely expires while earlier uploads run.
  const window = limitConcurrency(MAX_GRANTS_PER_REQUEST);
  const grants = grantBatcher(grantsUrl, { authorization: `Bearer ${opts.token}`, 'x-folio-fencing': String(opts.fencing) }, timeoutMs);

  async function send(key: string, grant: Grant, body: Uint8Array | ObjectStream): Promise<{ status: number; text: string }> {
    try {
      return await putBytes(grant.url, grant.headers, body, timeoutMs);
    } catch (err) {
      throw appError('store_unreachable', `The store did not answer the upload of ${key}`, err);
    }
  }

  /** Uploads `body` through a grant; resolves `false` when the control plane grants nothing (fall back). */
  function granted(key: string, body: Uint8Array | ObjectStream, putOpts: PutOptions = {}): Promise<boolean> {
    assertKey(key);
    return window(() => upload(key, body, putOpts));
  }

  async function upload(key: string, body: Uint8Array | ObjectStream, putOpts: PutOptions): Promise<boolean> {
    const size = body instanceof Uint8Array ? body.byteLength : body.size;
    const wanted: Wanted = { key, size, content_type: putOpts.contentType ?? contentTypeFor(key), cache_control: putOpts.cacheControl ?? cacheControlFor(key) };
    // Asked before the upload's turn: batches are granted while earlier uploads run.
    let grant = await grants.ask(wanted);
    if (!grant) return false;
    await limit(async () => {
      if (grant!.expiresAt - Date.now() < RENEW_MARGIN_MS) grant = (await grants.ask(wanted)) ?? grant;
      let answer = await send(key, grant!, body);
      if (answer.status === 403 && body instanceof Uint8Array) {
        grant = (await grants.ask(wanted)) ?? grant;
        answer = await send(key, grant!, body);
      }
      if (answer.status >= 300) throw appError('store_error', `The store answered ${answer.status} to the upload of ${key}: ${answer.text.slice(0, 500)}`);
    });
    return true;
  }

  return {
    ...objects,
    put: async (key, bytes, putOpts) => { if (!await granted(key, bytes, putOpts)) await objects.put(key, bytes, putOpts); },
    putStream: async (key, body, putOpts) => { if (!await granted(key, body, putOpts)) await objects.putStream(key, body, putOpts); },
  };
}

/**
 * Asks the grants route for the objects wanted within `BATCH_WAIT_MS` of each other, up to
 * `MAX_GRANTS_PER_REQUEST` per request. `ask` resolves `undefined` once the route is known to be
 * missing (404).
 */
function grantBatcher(url: string, auth: Record<string, string>, timeoutMs: number) {
  let missing = false;
  let pending: Array<{ wanted: Wanted; resolve(g: Grant | undefined): void; reject(err: unknown): void }> = [];
  let timer: NodeJS.Timeout | undefined;

  async function request(batch: typeof pending): Promise<void> {
    const sentAt = Date.now();
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ objects: batch.map((b) => b.wanted) }), signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw appError('store_unreachable', `The control plane did not answer POST ${url}`, err);
    }
    if (res.status === 404) { await res.body?.cancel(); missing = true; for (const b of batch) b.resolve(undefined); return; }
    if (res.status === 409) { await res.body?.cancel(); throw new LeaseLostError(); }
    if (res.status >= 400) throw appError('store_error', `The control plane answered ${res.status} to POST ${url}: ${(await res.text()).slice(0, 500)}`);
    const answer = grantAnswer.parse(await res.json());
    const expiresAt = sentAt + answer.expires_in_ms;
    batch.forEach((b, i) => {
      const g = answer.objects[i];
      if (g?.key !== b.wanted.key) b.reject(appError('store_error', `Unexpected grants answer from ${url}; expected one grant per object, in order`));
      else b.resolve({ url: new URL(g.url, url).href, headers: g.headers, expiresAt });
    });
  }

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    while (pending.length) {
      const batch = pending.slice(0, MAX_GRANTS_PER_REQUEST);
      pending = pending.slice(MAX_GRANTS_PER_REQUEST);
      request(batch).catch((err: unknown) => { for (const b of batch) b.reject(err); });
    }
  }

  return {
    ask(wanted: Wanted): Promise<Grant | undefined> {
      if (missing) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        pending.push({ wanted, resolve, reject });
        if (pending.length >= MAX_GRANTS_PER_REQUEST) flush();
        else timer ??= setTimeout(flush, BATCH_WAIT_MS);
      });
    },
  };
}

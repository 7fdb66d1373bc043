/**
 * The one object-store interface the builder publishes through. Two real implementations:
 * `createLocalDirStore` (the embedded default) and `createS3Store` (any S3 API); a build in a
 * worker or a CI run publishes through `createHttpStore` (the control plane's job object routes).
 * Keys are `/`-separated, never start with `/` and never contain `..`.
 */
export interface PutOptions {
  /** Default: from the key's extension (`contentTypeFor`). */
  contentType?: string;
  /** Default: from the key (`cacheControlFor`). */
  cacheControl?: string;
}

export interface ObjectHead {
  /** Hex MD5 of the bytes (the ETag S3 gives single-part uploads), without quotes. */
  etag: string;
  size: number;
  contentType?: string;
}

/** An object's bytes as they arrive (a request body passed through), `size` of them in all. */
export interface ObjectStream {
  chunks: AsyncIterable<Uint8Array>;
  size: number;
}

export interface ObjectStore {
  put(key: string, bytes: Uint8Array, opts?: PutOptions): Promise<void>;
  /**
   * Writes an object without holding it whole (the control plane's object routes pass uploads of
   * any size through). Fails, writing nothing, when the chunks are not `size` bytes in all.
   */
  putStream(key: string, body: ObjectStream, opts?: PutOptions): Promise<void>;
  /** The object's bytes, or `undefined` when it does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** The object's ETag and size, or `undefined` when it does not exist. */
  head(key: string): Promise<ObjectHead | undefined>;
  /** Every key starting with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes the keys; missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
  /**
   * Copies the object at `fromKey` to `toKey`, replacing what `toKey` held, without the bytes
   * passing through this process where the store can avoid it (a hard link in a local folder, a
   * server-side copy on S3). Resolves `true` when copied, `false` when `fromKey` does not exist.
   * The control plane preserves a key's previous object with it before a deployment replaces it
   * (deploy/publish-rollback.ts).
   */
  copy(fromKey: string, toKey: string): Promise<boolean>;
}

/**
 * A view of `store` where every key is under `prefix` (e.g. `sites/<siteId>/`), so one bucket
 * holds many sites. Listing returns keys relative to the prefix.
 */
export function prefixStore(store: ObjectStore, prefix: string): ObjectStore {
  if (prefix === '') return store;
  const p = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return {
    put: (key, bytes, opts) => store.put(p + key, bytes, opts),
    putStream: (key, body, opts) => store.putStream(p + key, body, opts),
    get: (key) => store.get(p + key),
    head: (key) => store.head(p + key),
    list: async (sub) => (await store.list(p + sub)).map((k) => k.slice(p.length)),
    delete: (keys) => store.delete(keys.map((k) => p + k)),
    copy: (from, to) => store.copy(p + from, p + to),
  };
}

/**
 * The chunks of `body`, each passed to `see` first; throws when they are not `body.size` bytes in
 * all. The last chunk is held until the source has ended, so a writer framed by the size (an
 * HTTP body with a Content-Length) never receives all of it from a source that then fails.
 */
export async function* sizedChunks(body: ObjectStream, see?: (chunk: Uint8Array) => void): AsyncGenerator<Uint8Array> {
  let seen = 0;
  let held: Uint8Array | undefined;
  for await (const chunk of body.chunks) {
    seen += chunk.byteLength;
    if (seen > body.size) break;
    if (held) yield held;
    see?.(chunk);
    held = chunk;
  }
  if (seen !== body.size) throw new RangeError(`Unexpected object length; expected ${body.size} bytes, got ${seen > body.size ? 'more' : seen}`);
  if (held) yield held;
}

/** Checks a key is relative and stays below the store root. */
export function assertKey(key: string): void {
  if (key === '' || key.startsWith('/') || key.includes('\\') || key.includes('\0') || key.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw new TypeError(`Unexpected object key "${key}"; expected a relative path without "." or ".." segments`);
  }
}

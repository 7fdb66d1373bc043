import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Content-Type of the builder's state objects. */
export const GZIP_JSON = 'application/gzip';

/**
 * Compression level of the builder's state: level 2 costs far less CPU than zlib's default 6 for
 * a few more bytes (builder docs/benchmarks.md, "State compression"), and a cold build gzips
 * every page's cache entry, an edit the whole summaries object.
 */
const LEVEL = 2;

/**
 * `value` as gzipped JSON. The builder's state (manifest, summaries, page cache) is mostly HTML,
 * Markdown and search text: gzip keeps it small next to the site it describes.
 */
export async function encodeJson(value: unknown): Promise<Buffer> {
  return gzipBytes(Buffer.from(JSON.stringify(value)));
}

/** `bytes` gzipped (for JSON already serialized, e.g. to hash it first). */
export function gzipBytes(bytes: Buffer): Promise<Buffer> {
  return gzipAsync(bytes, { level: LEVEL });
}

/**
 * Output chunk size for gunzipping `bytes`: the size gzip's trailer records (ISIZE, the input's
 * size modulo 2^32), within 16 KB and 8 MB. zlib's asynchronous API inflates one chunk per trip
 * to its thread pool, 16 KB by default, and each trip costs (builder docs/benchmarks.md,
 * "Gunzip chunks"). A wrong trailer
 * only changes how many trips it takes.
 */
function outputChunk(bytes: Uint8Array): number {
  const recorded = bytes.byteLength >= 18 ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(bytes.byteLength - 4) : 0;
  // A little over: with no room left, zlib makes one more trip to find the end of the stream.
  return Math.min(Math.max(recorded + 64, MIN_CHUNK), MAX_CHUNK);
}

const MIN_CHUNK = 16 * 1024;
const MAX_CHUNK = 8 * 1024 * 1024;

/**
 * The value of gzipped JSON `bytes`, or `undefined` when they are not gzip or not JSON (a lost or
 * foreign object is a miss), or when `accept` refuses the JSON's bytes (e.g. not the hash expected).
 */
export async function decodeJson<T>(bytes: Uint8Array | undefined, accept?: (json: Buffer) => boolean): Promise<T | undefined> {
  if (bytes === undefined) return undefined;
  try {
    const json = await gunzipAsync(bytes, { chunkSize: outputChunk(bytes) });
    if (accept && !accept(json)) return undefined;
    return JSON.parse(json.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

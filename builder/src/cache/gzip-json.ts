import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Content-Type of the builder's state objects. */
export const GZIP_JSON = 'application/gzip';

/**
 * `value` as gzipped JSON. The builder's state (manifest, summaries, page cache) is mostly HTML,
 * Markdown and search text: gzip keeps it near an eighth of its size for well under a
 * millisecond per page, so the state stays small next to the site it describes.
 */
export async function encodeJson(value: unknown): Promise<Buffer> {
  return gzipBytes(Buffer.from(JSON.stringify(value)));
}

/** `bytes` gzipped (for JSON already serialized, e.g. to hash it first). */
export function gzipBytes(bytes: Buffer): Promise<Buffer> {
  return gzipAsync(bytes);
}

/** The value of gzipped JSON `bytes`, or `undefined` when they are not gzip or not JSON (a lost or foreign object is a miss). */
export async function decodeJson<T>(bytes: Uint8Array | undefined): Promise<T | undefined> {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse((await gunzipAsync(bytes)).toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

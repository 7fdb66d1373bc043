import { createHash } from 'node:crypto';

/**
 * Git's blob id of some bytes: sha1 of `blob <size>\0<bytes>`. A plain directory gets the same
 * ids a Git checkout of it would, so the per-page cache works the same for both inputs.
 */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

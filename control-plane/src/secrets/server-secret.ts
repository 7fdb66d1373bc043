/**
 * Secrets the platform makes for itself, one per purpose, stored in the database on first use
 * (see db/models/server-secret.ts). The first writer wins a race, and every caller then reads
 * the same value.
 */
import { randomBytes } from 'node:crypto';
import type { Models } from '../db/models/index.ts';

const cache = new WeakMap<Models, Map<string, Promise<Buffer>>>();

/** The 32-byte secret named `purpose`, made on first use. */
export function serverSecret(m: Models, purpose: string): Promise<Buffer> {
  let byPurpose = cache.get(m);
  if (!byPurpose) cache.set(m, byPurpose = new Map());
  let secret = byPurpose.get(purpose);
  if (!secret) {
    secret = (async () => {
      const made = randomBytes(32).toString('base64url');
      const doc = await m.ServerSecret.findOneAndUpdate(
        { _id: purpose },
        { $setOnInsert: { value: made, created_at: new Date() } },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      return Buffer.from(doc!.value, 'base64url');
    })();
    // A failed read (database down) is retried by the next caller, not cached.
    secret.catch(() => byPurpose!.delete(purpose));
    byPurpose.set(purpose, secret);
  }
  return secret;
}

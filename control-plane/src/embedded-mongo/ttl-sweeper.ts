import { valuesAtPath } from './bson-values.ts';
import type { Store } from './store.ts';

/** How often expired documents are removed (mongod's TTL monitor also runs every 60 seconds). */
export const TTL_INTERVAL_MS = 60_000;

/**
 * Deletes documents whose TTL index field holds a date older than `expireAfterSeconds` (for an
 * array of dates, the earliest counts; documents without a date never expire). Returns how many
 * were removed.
 */
export function sweepExpired(store: Store, now = Date.now()): number {
  let removed = 0;
  for (const colls of [...store.databases.values()]) {
    for (const coll of [...colls.values()]) {
      for (const index of coll.indexes) {
        const fields = Object.keys(index.key);
        if (typeof index.expireAfterSeconds !== 'number' || fields.length !== 1) continue;
        const cutoff = now - index.expireAfterSeconds * 1000;
        for (const doc of [...coll.docs.values()]) {
          const dates = valuesAtPath(doc, fields[0]).flat().filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff) {
            coll.remove(doc);
            removed++;
          }
        }
      }
    }
  }
  return removed;
}

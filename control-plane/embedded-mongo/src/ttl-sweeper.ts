import type { Document } from 'bson';
import { valuesAtPath } from './bson-values.ts';
import type { Store } from './store.ts';

/** How often expired documents are removed (mongod's TTL monitor also runs every 60 seconds). */
export const TTL_INTERVAL_MS = 60_000;

/**
 * The earliest instant a document's TTL field holds (for an array of dates, the earliest), or
 * undefined when it holds no date. A top-level field holding a Date or a non-date scalar (the
 * usual cases) is read directly: the sweep looks at every document of the collection every
 * minute, and the general path lookup allocated several arrays per document, which at a million
 * analytics events held the event loop for seconds at each sweep.
 */
function earliestDate(doc: Document, field: string): number | undefined {
  if (!field.includes('.')) {
    const v = doc[field];
    if (v instanceof Date) return v.getTime();
    if (!Array.isArray(v)) return undefined;
  }
  const dates = valuesAtPath(doc, field).flat().filter((v): v is Date => v instanceof Date);
  return dates.length > 0 ? Math.min(...dates.map((d) => d.getTime())) : undefined;
}

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
        const expired: Document[] = [];
        for (const doc of coll.docs.values()) {
          const at = earliestDate(doc, fields[0]);
          if (at !== undefined && at <= cutoff) expired.push(doc);
        }
        for (const doc of expired) coll.remove(doc);
        removed += expired.length;
      }
    }
  }
  return removed;
}

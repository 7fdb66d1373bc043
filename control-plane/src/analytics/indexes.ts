/** Indexes and retention of the analytics collections. */
import type { Models } from '../db/models/index.ts';

const TTL_INDEX = 'analytics_retention';

/**
 * Creates the query indexes (declared on the schema) and the retention index: raw events expire
 * `retentionDays` after they happened. A changed retention replaces the old TTL index.
 */
export async function ensureAnalyticsIndexes(m: Models, retentionDays: number): Promise<void> {
  await m.AnalyticsEvent.createIndexes();
  await m.AnalyticsSalt.createIndexes();
  // Rollups have no TTL: they outlive raw events (see analytics/rollup-window.ts).
  await m.AnalyticsRollup.createIndexes();
  await m.AnalyticsVisitorHour.createIndexes();
  await m.AnalyticsDayUniques.createIndexes();
  const seconds = retentionDays * 86_400;
  const coll = m.AnalyticsEvent.collection;
  const existing = (await coll.listIndexes().toArray()).find((i) => i.name === TTL_INDEX);
  if (existing && existing.expireAfterSeconds === seconds) return;
  if (existing) await coll.dropIndex(TTL_INDEX);
  await coll.createIndex({ ts: 1 }, { name: TTL_INDEX, expireAfterSeconds: seconds });
}

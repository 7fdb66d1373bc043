/**
 * A bounded memo for classification: real traffic repeats a few thousand User-Agents, referrers,
 * query strings and geo header values, and classifying each again (a User-Agent parse, a URL
 * parse, list scans, URI decoding) was a large share of ingestion's CPU. When the cache is full it
 * starts again empty instead of evicting one entry at a time: a hit then costs one `Map` lookup
 * and no bookkeeping (an LRU would reorder on every hit), and values are pure functions of their
 * key, so a cleared entry is only computed again, never answered differently.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly max: number;

  /** `max`: entries held at most. */
  constructor(max: number) {
    this.max = max;
  }

  /** The value of `key`, made with `make(key)` (and kept) when not held. */
  get(key: string, make: (key: string) => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = make(key);
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }
}

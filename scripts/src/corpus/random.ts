/**
 * A small seeded random source, so a generated corpus is the same on every machine and run.
 * Each page draws from its own stream (seed and page number), so page 7 is the same page in a
 * 1,000-page and a 10,000-page corpus.
 */

/** Random draws from one seeded stream. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One item of `items`. */
  pick<T>(items: readonly T[]): T;
  /** One key of `weights`, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** Log-normal with the given median and 90th percentile. */
  logNormal(median: number, p90: number): number;
  /**
   * The URL of a page to link to, when the stream belongs to a page of a corpus: authors link to
   * pages that exist, so a link the checker reports is one an author would have to fix.
   */
  linkTarget?(): string;
}

/** z of the 90th percentile of the standard normal distribution. */
const Z90 = 1.2815515655446004;

/** mulberry32: uniform draws in [0, 1) from a 32-bit seed; the same seed gives the same draws. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stream for page `index` of a corpus generated with `seed` (mulberry32). */
export function randomFor(seed: number, index: number): Random {
  const next = mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted(weights) {
      const entries = Object.entries(weights) as Array<[keyof typeof weights, number]>;
      let r = next() * entries.reduce((sum, [, w]) => sum + w, 0);
      for (const [key, w] of entries) {
        r -= w;
        if (r < 0) return key;
      }
      return entries[entries.length - 1][0];
    },
    logNormal(median, p90) {
      // Box-Muller; 1 - next() keeps the logarithm finite.
      const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return median * Math.exp((z * Math.log(p90 / median)) / Z90);
    },
  };
  return random;
}

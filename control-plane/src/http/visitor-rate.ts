/**
 * A per-visitor sliding-window rate limit, shared by the site's endpoints that a visitor can
 * call in a loop (assistant, MCP, site password, SSO starts). Counters live in this process.
 */
import { AppError } from '../errors.ts';

/** How many messages one visitor may send per window. */
export interface VisitorRateLimits {
  /** Messages one visitor may send per window. */
  visitorMessages: number;
  /** The window of `visitorMessages`, in ms. */
  visitorWindowMs: number;
}

/** Per-visitor sliding-window counter: the times of each visitor's recent messages. */
export class VisitorRate {
  readonly #recent = new Map<string, number[]>();
  readonly limits: VisitorRateLimits;
  readonly #message: (waitSeconds: number) => string;
  /** `message` words the 429 (default: the assistant's "Too many questions…"). */
  constructor(limits: VisitorRateLimits, message = (wait: number) => `Too many questions from you in a short time; ask again in ${wait} s`) {
    this.limits = limits;
    this.#message = message;
  }

  /** Whether `count` more messages of `visitor` fit in the window at `now` (nothing is counted). */
  fits(visitor: string, now: number, count = 1): boolean {
    const since = now - this.limits.visitorWindowMs;
    return (this.#recent.get(visitor) ?? []).filter((t) => t > since).length + count <= this.limits.visitorMessages;
  }

  /**
   * Counts `count` messages (default 1) of `visitor` at `now`, or, when they do not all fit in
   * the window, counts none and throws 429 `rate_limited` with the seconds until they would.
   */
  take(visitor: string, now: number, count = 1): void {
    const since = now - this.limits.visitorWindowMs;
    const times = (this.#recent.get(visitor) ?? []).filter((t) => t > since);
    const over = times.length + count - this.limits.visitorMessages;
    if (over > 0) {
      // The wait until `over` of the counted messages have left the window.
      const frees = count > this.limits.visitorMessages ? now : times[over - 1];
      const wait = Math.max(1, Math.ceil((frees - since) / 1000));
      this.#recent.set(visitor, times);
      throw new AppError(429, 'rate_limited', this.#message(wait), { headers: { 'Retry-After': String(wait) } });
    }
    for (let i = 0; i < count; i++) times.push(now);
    this.#recent.set(visitor, times);
    // Forget idle visitors now and then, so the map does not grow with every address ever seen.
    if (this.#recent.size > 10_000) for (const [k, v] of this.#recent) if (v[v.length - 1] <= since) this.#recent.delete(k);
  }
}

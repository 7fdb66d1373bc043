/**
 * Sign-in rate limiting: failed attempts are counted per email address and per client address
 * over a sliding window; past either limit every attempt (even with the right password) is
 * `429 rate_limited` with Retry-After until the oldest failure leaves the window. A success
 * clears the address's count for that email. Counters live in this process: several API
 * processes each apply the limits to the attempts they see.
 */
import { AppError } from '../errors.ts';

export interface SignInLimitOptions {
  /** Failures one email may have per window. Default 5. */
  perEmail: number;
  /** Failures one client address may have per window (all emails together). Default 20. */
  perIp: number;
  /** The window, in ms. Default 15 minutes. */
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitOptions = { perEmail: 5, perIp: 20, windowMs: 15 * 60_000 };

export class SignInLimits {
  readonly #failures = new Map<string, number[]>();
  readonly opts: SignInLimitOptions;
  constructor(opts: Partial<SignInLimitOptions> = {}) { this.opts = { ...DEFAULT_SIGN_IN_LIMITS, ...opts }; }

  #recent(key: string, now: number): number[] {
    const since = now - this.opts.windowMs;
    const times = (this.#failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.#failures.set(key, times);
    else this.#failures.delete(key);
    return times;
  }

  /** Throws 429 when the email or the address is over its limit. */
  check(email: string, ip: string, now: number): void {
    for (const [key, limit] of [[`e:${email}`, this.opts.perEmail], [`i:${ip}`, this.opts.perIp]] as const) {
      const times = this.#recent(key, now);
      if (times.length >= limit) {
        const wait = Math.max(1, Math.ceil((times[0] + this.opts.windowMs - now) / 1000));
        throw new AppError(429, 'rate_limited', `Too many failed sign-in attempts; try again in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
      }
    }
  }

  /** Counts one failed attempt. */
  fail(email: string, ip: string, now: number): void {
    for (const key of [`e:${email}`, `i:${ip}`]) this.#failures.set(key, [...this.#recent(key, now), now]);
    // Forget idle keys now and then, so the map does not grow with every address ever seen.
    if (this.#failures.size > 10_000) for (const key of [...this.#failures.keys()]) this.#recent(key, now);
  }

  /** A successful sign-in forgets the email's failures. */
  succeed(email: string): void {
    this.#failures.delete(`e:${email}`);
  }
}

/**
 * The assistant's abuse limits, besides the plan's daily message quota: how long a question may
 * be, how many messages one visitor may send a site per minute, and how many answers one site
 * streams at once. Counters live in this process (a site server behind a CDN sees every cache
 * miss; several site servers each apply the limits to their own share).
 */
import { AppError } from '../errors.ts';
import { SlotsPerKey } from '../http/slots-per-key.ts';

/** Limits; every field has the default shown. */
export interface AbuseLimits {
  /** Characters of one user message (the question). */
  maxQuestionChars: number;
  /** Characters of one earlier assistant message sent back as history. */
  maxAnswerChars: number;
  /** Messages in one conversation (user and assistant together). */
  maxMessages: number;
  /** Bytes of a request body. */
  maxBodyBytes: number;
  /** Messages one visitor may send one site per window. */
  visitorMessages: number;
  /** The window of `visitorMessages`, in ms. */
  visitorWindowMs: number;
  /** Answers one site streams at the same time. */
  siteStreams: number;
  /** A request body must arrive within this many ms. */
  bodyTimeoutMs: number;
}

export const DEFAULT_ABUSE_LIMITS: AbuseLimits = {
  maxQuestionChars: 2_000,
  maxAnswerChars: 8_000,
  maxMessages: 20,
  maxBodyBytes: 64 * 1024,
  visitorMessages: 10,
  visitorWindowMs: 60_000,
  siteStreams: 20,
  bodyTimeoutMs: 10_000,
};

/** Per-visitor sliding-window counter: the times of each visitor's recent messages. */
export class VisitorRate {
  readonly #recent = new Map<string, number[]>();
  readonly limits: Pick<AbuseLimits, 'visitorMessages' | 'visitorWindowMs'>;
  constructor(limits: Pick<AbuseLimits, 'visitorMessages' | 'visitorWindowMs'>) { this.limits = limits; }

  /** Counts one message of `visitor` at `now`, or throws 429 `rate_limited` with the seconds until one is allowed. */
  take(visitor: string, now: number): void {
    const since = now - this.limits.visitorWindowMs;
    const times = (this.#recent.get(visitor) ?? []).filter((t) => t > since);
    if (times.length >= this.limits.visitorMessages) {
      const wait = Math.max(1, Math.ceil((times[0] - since) / 1000));
      this.#recent.set(visitor, times);
      throw new AppError(429, 'rate_limited', `Too many questions from you in a short time; ask again in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
    }
    times.push(now);
    this.#recent.set(visitor, times);
    // Forget idle visitors now and then, so the map does not grow with every address ever seen.
    if (this.#recent.size > 10_000) for (const [k, v] of this.#recent) if (v[v.length - 1] <= since) this.#recent.delete(k);
  }
}

/** Open answer streams per site. */
export class SiteStreams extends SlotsPerKey {
  constructor(max: number) {
    super(max, () => new AppError(429, 'rate_limited', 'This site\'s assistant is answering too many questions at once; try again in a few seconds', { headers: { 'Retry-After': '5' } }));
  }
}

/**
 * The assistant's and the MCP endpoint's abuse limits, besides the plan's daily message quota:
 * how long a question may be, how many messages one visitor may send a site per minute, how
 * many answers one site streams at once, and for MCP how many calls one visitor may make per
 * minute (each message of a batch counts), how many messages one request may carry and how many
 * bytes of page text one call and one response may return. Counters live in this process (a
 * site server behind a CDN sees every cache miss; several site servers each apply the limits to
 * their own share).
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
  /** MCP messages (tool calls, reads, every message of a batch) one visitor may send one site per minute. */
  mcpCallsPerMinute: number;
  /** Messages one MCP request may carry as a JSON-RPC batch; more is refused whole (-32600). */
  mcpBatch: number;
  /** Bytes of text one `get_page` call or resource read returns; a longer page comes in parts. */
  mcpPageBytes: number;
  /** Bytes of page text one MCP response carries across all the calls of its batch. */
  mcpResponseBytes: number;
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
  mcpCallsPerMinute: 300,
  mcpBatch: 20,
  mcpPageBytes: 256 * 1024,
  mcpResponseBytes: 4 * 1024 * 1024,
};

/** Per-visitor sliding-window counter: the times of each visitor's recent messages. */
export class VisitorRate {
  readonly #recent = new Map<string, number[]>();
  readonly limits: Pick<AbuseLimits, 'visitorMessages' | 'visitorWindowMs'>;
  readonly #message: (waitSeconds: number) => string;
  /** `message` words the 429 (default: the assistant's "Too many questions…"). */
  constructor(limits: Pick<AbuseLimits, 'visitorMessages' | 'visitorWindowMs'>, message = (wait: number) => `Too many questions from you in a short time; ask again in ${wait} s`) {
    this.limits = limits;
    this.#message = message;
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

/** Open answer streams per site. */
export class SiteStreams extends SlotsPerKey {
  constructor(max: number) {
    super(max, () => new AppError(429, 'rate_limited', 'This site\'s assistant is answering too many questions at once; try again in a few seconds', { headers: { 'Retry-After': '5' } }));
  }
}

/**
 * The assistant's and the MCP endpoint's abuse limits, besides the plan's daily message quota:
 * how long a question may be, how many messages one visitor may send a site per minute, how
 * many model answers one reader and one address may get from a site per hour (so one visitor
 * cannot use up a site's day; past it they get the best matching pages, not an error), how
 * many answers one site streams at once, and for MCP how many calls one visitor may make per
 * minute (each message of a batch counts), how many messages one request may carry and how many
 * bytes of page text one call and one response may return. Counters live in this process (a
 * site server behind a CDN sees every cache miss; several site servers each apply the limits to
 * their own share).
 */
import { AppError } from '../errors.ts';
import { SlotsPerKey } from '../http/slots-per-key.ts';
import { VisitorRate } from '../http/visitor-rate.ts';

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
  /** Messages one visitor may send one site per window (over it: 429 `rate_limited`, a flood guard). */
  visitorMessages: number;
  /** The window of `visitorMessages`, in ms. */
  visitorWindowMs: number;
  /** Model answers one reader (anonymous reader id) may get from one site per hour; over it, the best matching pages instead. */
  readerAnswersPerHour: number;
  /** Model answers one address may get from one site per hour (readers behind one address share it); over it, the best matching pages instead. */
  addressAnswersPerHour: number;
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
  readerAnswersPerHour: 10,
  addressAnswersPerHour: 30,
  siteStreams: 20,
  bodyTimeoutMs: 10_000,
  mcpCallsPerMinute: 300,
  mcpBatch: 20,
  mcpPageBytes: 256 * 1024,
  mcpResponseBytes: 4 * 1024 * 1024,
};

/** Open answer streams per site. */
export class SiteStreams extends SlotsPerKey {
  constructor(max: number) {
    super(max, () => new AppError(429, 'rate_limited', 'This site\'s assistant is answering too many questions at once; try again in a few seconds', { headers: { 'Retry-After': '5' } }));
  }
}

const HOUR_MS = 3_600_000;

/** A reader: their address, and the anonymous id the site's panel sends (`X-Folio-Reader`), if any. */
export interface Reader { address: string; id?: string }

/** Model answers per reader and per address in the last hour, for one site at a time. */
export class ReaderAnswers {
  readonly #byId: VisitorRate;
  readonly #byAddress: VisitorRate;
  constructor(limits: Pick<AbuseLimits, 'readerAnswersPerHour' | 'addressAnswersPerHour'>) {
    this.#byId = new VisitorRate({ visitorMessages: limits.readerAnswersPerHour, visitorWindowMs: HOUR_MS });
    this.#byAddress = new VisitorRate({ visitorMessages: limits.addressAnswersPerHour, visitorWindowMs: HOUR_MS });
  }

  /** Whether the reader may have one more model answer now; counts it when so. */
  take(site: string, reader: Reader, now: number): boolean {
    const address = `${site}\0${reader.address}`;
    const id = reader.id ? `${site}\0${reader.id}` : undefined;
    if (!this.#byAddress.fits(address, now) || (id && !this.#byId.fits(id, now))) return false;
    this.#byAddress.take(address, now);
    if (id) this.#byId.take(id, now);
    return true;
  }
}

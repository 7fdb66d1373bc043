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

/** Open answer streams per site. */
export class SiteStreams extends SlotsPerKey {
  constructor(max: number) {
    super(max, () => new AppError(429, 'rate_limited', 'This site\'s assistant is answering too many questions at once; try again in a few seconds', { headers: { 'Retry-After': '5' } }));
  }
}

/**
 * What the assistant and the MCP endpoint report for analytics (spec 2.8 `usage`:
 * `assistant_opens`, `assistant_messages`; MCP reads count as AI traffic). They call a sink
 * passed in through their options; the default does nothing, and the platform connects it to
 * the analytics recorder. A sink must not throw or block: it is called on the request path.
 */
import type http from 'node:http';

export type UsageEvent = UsageContext & (
  | { kind: 'assistant_open' }
  | { kind: 'assistant_message'; mode: 'llm' | 'excerpts' }
  | McpRead);

/** What every usage event carries: the site, the time and the request it came from. */
export interface UsageContext {
  projectId: string;
  at: Date;
  userAgent?: string;
  /** The visitor's request (read for classification by the analytics sink, never stored). */
  req?: http.IncomingMessage;
}

/** What an MCP request read. */
export interface McpRead { kind: 'mcp_read'; what: 'search_docs' | 'get_page' | 'resource'; path?: string }

export type UsageSink = (event: UsageEvent) => void;

/** The default sink: records nothing. */
export const noUsageSink: UsageSink = () => {};

/** Calls `sink`, never letting its failure reach the request. */
export function record(sink: UsageSink, event: UsageEvent): void {
  try { sink(event); } catch { /* analytics must never fail a visitor's request */ }
}

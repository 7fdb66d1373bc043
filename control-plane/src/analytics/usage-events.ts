/**
 * The assistant's and the MCP endpoint's usage, recorded through the one analytics call:
 * opens and messages as `assistant_open` / `assistant_message` (spec 2.8 `usage`), and MCP reads
 * of a page or `llms.txt` as exports of that kind, so they count with the other Markdown reads
 * of AI agents. An MCP search reads no document and is not recorded.
 */
import type { UsageEvent, UsageSink } from '../assistant/usage-sink.ts';
import type { EventBody } from './event-input.ts';
import type { AnalyticsRecorder } from './recorder.ts';
import { visitOf } from './visit.ts';

/** The event body a usage event is recorded as, or `undefined` when it is not recorded. */
export function usageBody(event: UsageEvent): EventBody | undefined {
  switch (event.kind) {
    case 'assistant_open': return { kind: 'assistant_open' };
    case 'assistant_message': return { kind: 'assistant_message' };
    case 'mcp_read':
      if (event.what === 'search_docs') return undefined;
      return event.path === '/llms.txt' ? { kind: 'export', exportKind: 'llms_txt', path: event.path } : { kind: 'export', exportKind: 'markdown', path: event.path };
  }
}

/** A usage sink that records into `recorder` (visits classified from the event's request). */
export function usageToAnalytics(recorder: AnalyticsRecorder, trustProxy: boolean): UsageSink {
  return (event) => {
    const body = usageBody(event);
    if (!body || !event.req) return;
    recorder.record({ ...body, projectId: event.projectId, at: event.at, visit: visitOf(event.req, { trustProxy }) });
  };
}

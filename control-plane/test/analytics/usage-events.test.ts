import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { usageBody, usageToAnalytics } from '../../src/analytics/usage-events.ts';
import type { UsageEvent } from '../../src/assistant/usage-sink.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('usage events', async (t) => {
  const at = new Date('2026-03-02T10:00:00Z');
  const base = { projectId: 'p-usage', at };

  t.test('should record opens, messages and MCP document reads, not MCP searches', async (t) => {
    t.same(usageBody({ ...base, kind: 'assistant_open' }), { kind: 'assistant_open' });
    t.same(usageBody({ ...base, kind: 'assistant_message', mode: 'excerpts' }), { kind: 'assistant_message' });
    t.same(usageBody({ ...base, kind: 'mcp_read', what: 'get_page', path: '/guides.md' }), { kind: 'export', exportKind: 'markdown', path: '/guides.md' });
    t.same(usageBody({ ...base, kind: 'mcp_read', what: 'resource', path: '/llms.txt' }), { kind: 'export', exportKind: 'llms_txt', path: '/llms.txt' });
    t.equal(usageBody({ ...base, kind: 'mcp_read', what: 'search_docs' }), undefined);
  });

  t.test('should store them classified from the request that made them', async (t) => {
    const api = await startTestApi();
    t.teardown(() => api.close());
    const recorder = new AnalyticsRecorder(api.cp.m);
    t.teardown(() => recorder.close());
    const sink = usageToAnalytics(recorder, false);
    const events: Array<(req: http.IncomingMessage) => UsageEvent> = [
      (req) => ({ ...base, kind: 'assistant_open', req }),
      (req) => ({ ...base, kind: 'mcp_read', what: 'get_page', path: '/guides.md', req }),
    ];
    // Real requests, so the sink reads a real socket and headers.
    const server = http.createServer((req, res) => { sink(events[Number(req.url!.slice(1))](req)); res.end(); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/0`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0' } });
    await fetch(`http://127.0.0.1:${port}/1`, { headers: { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)' } });
    await recorder.flush();
    const stored = await api.cp.m.AnalyticsEvent.collection.find({ project_id: 'p-usage' }, { projection: { _id: 0 } }).toArray();
    t.same(stored.map((e) => [e.kind, e.bot, e.export_kind ?? null, e.path ?? null]).sort(), [
      ['assistant_open', false, null, null],
      ['export', true, 'markdown', '/guides.md'],
    ]);
  });
});

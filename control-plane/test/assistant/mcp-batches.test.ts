/**
 * What one MCP request may cost: JSON-RPC batches are bounded in size, every message counts
 * against the per-visitor calls, and page text is bounded per call and per response. Small
 * limits here, so a handful of requests reaches every bound.
 */
import t from 'tap';
import { pagePart } from '../../src/assistant/mcp-route.ts';
import { startSiteFixture } from './site-fixture.ts';

const ACCEPT = { accept: 'application/json, text/event-stream' };
const PAGE_BYTES = 4096;
const RESPONSE_BYTES = 32 * 1024;
const PER_MINUTE = 45;

const getPage = (id: number, args: Record<string, unknown> = { path: '/llms-full.txt' }) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_page', arguments: args } });
const textOf = (message: any): string => message.result.content[0].text;
const OVER_BUDGET = 'This response already carries 32 KB of page text, the most one response may; ask for this page again in another request.';

t.test('MCP batches and response sizes', async (t) => {
  const f = await startSiteFixture({ limits: { mcpCallsPerMinute: PER_MINUTE, mcpPageBytes: PAGE_BYTES, mcpResponseBytes: RESPONSE_BYTES } });
  t.teardown(() => f.close());
  const site = await f.publish('free');
  const full = Buffer.from((await f.store.get(`sites/${site.id}/llms-full.txt`))!).toString('utf8');
  t.ok(Buffer.byteLength(full) > 3 * PAGE_BYTES, `llms-full.txt is ${Buffer.byteLength(full)} bytes, several parts`);
  const mcp = (body: unknown) => f.post(site.slug, '/mcp', body, { headers: ACCEPT });

  t.test('should refuse a batch over 20 messages whole, with one JSON-RPC error', async (t) => {
    const res = await mcp(Array.from({ length: 100 }, (_, i) => getPage(i + 1)));
    t.same([res.status, res.json], [400, {
      jsonrpc: '2.0', id: null,
      error: { code: -32600, message: 'Unexpected batch of 100 messages; expected at most 20 in one request (MCP 2025-06-18 has no batches: send one message per request)' },
    }]);
    t.same(f.usage.filter((u) => u.kind === 'mcp_read'), [], 'nothing ran');
  });

  let firstPart = '';
  t.test('should answer a batch of 20 with every page cut to its part and the response within its budget', async (t) => {
    const res = await mcp(Array.from({ length: 20 }, (_, i) => getPage(i + 1)));
    t.equal(res.status, 200);
    t.equal(res.json.length, 20);
    const texts = res.json.map(textOf);
    const parts = texts.filter((x: string) => x !== OVER_BUDGET);
    t.equal(parts.length + texts.filter((x: string) => x === OVER_BUDGET).length, 20, 'every call a part or the budget error');
    t.ok(parts.length >= 7 && parts.length <= 9, `${parts.length} parts fit in 32 KB`);
    for (const part of parts) {
      const [body, note] = part.split('\n\n[Part of a longer page: ');
      t.ok(Buffer.byteLength(body) <= PAGE_BYTES, 'a part holds at most 4 KB of the page');
      t.ok(full.startsWith(body), 'a part is the start of the page');
      t.match(note, /^bytes 0-\d+ of \d+\. Call get_page with \{"path": "\/llms-full\.txt", "offset": \d+\} for the next part\.\]$/);
    }
    t.ok(Buffer.byteLength(res.text) < RESPONSE_BYTES + 8 * 1024, `the response is ${Buffer.byteLength(res.text)} bytes`);
    firstPart = parts[0];
  });

  t.test('should count every message of a batch against the visitor\'s calls per minute', async (t) => {
    const search = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'rockets' } } });
    const second = await mcp(Array.from({ length: 20 }, (_, i) => search(i + 1)));
    t.equal(second.status, 200, '40 of 45 calls used');
    const third = await mcp(Array.from({ length: 20 }, (_, i) => search(i + 1)));
    t.same([third.status, third.headers['retry-after'], third.json], [429, '60', { error: 'rate_limited', message: 'Too many questions from you in a short time; ask again in 60 s' }]);
    const single = await mcp(search(1));
    t.same([single.status, single.json.id], [200, 1], 'a refused batch counted nothing: a single call still fits');
  });

  t.test('should hand out a long page part by part with the offset from the note', async (t) => {
    const offset = Number(/"offset": (\d+)\}/.exec(firstPart)![1]);
    const next = await mcp(getPage(7, { path: '/llms-full.txt', offset }));
    t.equal(next.status, 200);
    const body = textOf(next.json).split('\n\n[Part of a longer page: ')[0];
    t.equal(firstPart.split('\n\n[Part of a longer page: ')[0] + body, full.slice(0, (firstPart.split('\n\n[Part')[0] + body).length), 'the second part follows the first');
    const whole = await mcp(getPage(8, { path: '/index' }));
    t.notMatch(textOf(whole.json), /\[Part of a longer page/, 'a short page comes whole, without a note');
  });

  t.test('should cut parts at byte offsets without splitting a character', async (t) => {
    const text = 'ab€cd'; // € is 3 bytes: bytes 2-4
    t.same(pagePart(text, 0, 3, '/p'), { text: 'ab\n\n[Part of a longer page: bytes 0-1 of 7. Call get_page with {"path": "/p", "offset": 2} for the next part.]', bytes: 2 });
    t.same(pagePart(text, 2, 4, '/p'), { text: '€c\n\n[Part of a longer page: bytes 2-5 of 7. Call get_page with {"path": "/p", "offset": 6} for the next part.]', bytes: 4 });
    t.same(pagePart(text, 3, 10, '/p'), { text: 'cd\n\n[Last part of the page: bytes 5-6 of 7.]', bytes: 2 }, 'an offset inside a character starts at the next one');
    t.same(pagePart(text, 0, 10, '/p'), { text, bytes: 7 });
  });
});

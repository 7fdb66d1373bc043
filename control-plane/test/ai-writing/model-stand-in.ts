/**
 * A stand-in for an OpenAI-compatible chat completions server on 127.0.0.1, scripted by the
 * test: each request takes the next reply of `script` (or `fallback`), which is streamed as the
 * real API streams it: text in pieces, tool calls in pieces (name first, arguments split), then
 * a usage report (a chunk without choices) unless the reply says `usage: null`, then `[DONE]`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  text?: string;
  toolCalls?: { name: string; arguments: unknown }[];
  /** Total tokens reported (split 3:1 prompt:completion); null sends no usage report. Default 100. */
  tokens?: number | null;
  /** HTTP status to fail with instead. */
  status?: number;
  /** Never answer. */
  silent?: boolean;
}

export interface ModelStandIn {
  url: string;
  script: Array<Reply | ((body: any) => Reply)>;
  fallback: (body: any) => Reply;
  requests: { headers: http.IncomingHttpHeaders; body: any }[];
  close(): Promise<void>;
}

const chunk = (delta: unknown, extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;

/** Text cut into pieces of about `size` characters (so a client sees several deltas). */
const pieces = (text: string, size = 12) => text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];

export async function startModelStandIn(): Promise<ModelStandIn> {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      stand.requests.push({ headers: req.headers, body });
      if (req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      const next = stand.script.shift() ?? stand.fallback;
      const reply = typeof next === 'function' ? next(body) : next;
      if (reply.status) { res.writeHead(reply.status, { 'content-type': 'application/json' }).end('{"error":{"message":"scripted failure"}}'); return; }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      open.add(res);
      res.on('close', () => open.delete(res));
      if (reply.silent) return;
      res.write(chunk({ role: 'assistant', content: '' }));
      for (const p of pieces(reply.text ?? '')) res.write(chunk({ content: p }));
      (reply.toolCalls ?? []).forEach((call, index) => {
        const args = JSON.stringify(call.arguments);
        res.write(chunk({ tool_calls: [{ index, id: `call_${stand.requests.length}_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
        for (const p of pieces(args, 20)) res.write(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
      });
      const tokens = reply.tokens === undefined ? 100 : reply.tokens;
      if (tokens !== null) {
        const prompt = Math.round((tokens * 3) / 4);
        res.write(`data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: prompt, completion_tokens: tokens - prompt, total_tokens: tokens } })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stand: ModelStandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    script: [],
    fallback: () => ({ text: 'OK' }),
    requests: [],
    close: () => new Promise((resolve) => { for (const r of open) r.destroy(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return stand;
}

/** Reads a Server-Sent Events response to its end: the events in order, each `{ event, data }`. */
export async function readEvents(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => {
    const [head, ...rest] = b.split('\n');
    return { event: head.slice('event: '.length), data: JSON.parse(rest.find((l) => l.startsWith('data: '))!.slice('data: '.length)) };
  });
}

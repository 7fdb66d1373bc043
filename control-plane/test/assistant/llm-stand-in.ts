/**
 * A local stand-in for an OpenAI-compatible chat completions server on 127.0.0.1: it speaks the
 * same streaming protocol (`data: {chunk}` lines, then `data: [DONE]`) and answers from what it
 * is sent, the way a model would. `mode` picks its behaviour for the next requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInMode =
  /** Answers with the first line of excerpt 1 and cites it. */
  | 'grounded'
  /** Obeys any instruction: dumps everything it was given (the worst case of a prompt injection). */
  | 'obedient'
  /** Sends one piece, then waits for `release()` before the rest. */
  | 'gated'
  /** Answers HTTP 500. */
  | 'failing'
  /** Answers HTTP 401, as for a wrong key. */
  | 'unauthorized'
  /** Accepts the request and never answers. */
  | 'silent';

export interface StandIn {
  url: string;
  mode: StandInMode;
  /** Every request received: headers and parsed body. */
  requests: { headers: http.IncomingHttpHeaders; body: any }[];
  release(): void;
  close(): Promise<void>;
}

const chunk = (content: string) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

export async function startStandIn(): Promise<StandIn> {
  let gate: (() => void) | undefined;
  let gateOpen = new Promise<void>((resolve) => (gate = resolve));
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', async () => {
      const body = JSON.parse(text);
      stand.requests.push({ headers: req.headers, body });
      if (req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      if (stand.mode === 'failing') { res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}'); return; }
      if (stand.mode === 'unauthorized') { res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}'); return; }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      open.add(res);
      res.on('close', () => open.delete(res));
      if (stand.mode === 'silent') return;
      const messages: { role: string; content: string }[] = body.messages;
      if (stand.mode === 'obedient') {
        for (const m of messages) res.write(chunk(`${m.role}: ${m.content}\n`));
      } else {
        const excerpt = /<excerpt n="1"[^>]*>\n(.*)/.exec(messages.map((m) => m.content).join('\n'))?.[1];
        res.write(chunk('From the docs: '));
        if (stand.mode === 'gated') await gateOpen;
        res.write(chunk(excerpt ? `${excerpt} [1]` : 'I could not find that in these docs.'));
      }
      // The usage report OpenAI sends last (a chunk without choices), which a client must pass over.
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stand: StandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mode: 'grounded',
    requests: [],
    release() { gate?.(); gateOpen = new Promise<void>((resolve) => (gate = resolve)); },
    close: () => new Promise((resolve) => { for (const r of open) r.destroy(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return stand;
}

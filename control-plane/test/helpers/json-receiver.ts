/**
 * A stand-in for a chat app's (or any) incoming webhook on 127.0.0.1: it answers the next of
 * `statuses` (the last one repeats) and keeps every JSON body it was sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonReceiver {
  /** `http://127.0.0.1:<port><path>`. */
  url: string;
  /** `127.0.0.1:<port>`, for `fetchAllowHosts`. */
  host: string;
  /** Every body received, parsed, in order. */
  got: any[];
  close(): Promise<void>;
}

export async function jsonReceiver(path = '/hooks', statuses: number[] = [200]): Promise<JsonReceiver> {
  const got: any[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.statusCode = statuses[Math.min(got.length - 1, statuses.length - 1)];
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${host}${path}`, host, got, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

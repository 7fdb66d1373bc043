/**
 * A bare HTTP/1.1 client for edge-case tests: any method token, any header, any body bytes,
 * always to 127.0.0.1 (fetch refuses methods such as TRACE and rewrites bodies).
 */
import http from 'node:http';

export interface RawResponse { status: number; headers: http.IncomingHttpHeaders; text: string; body: any }

/** Sends one request on a fresh connection and reads the whole answer. */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Node frames a body of GET, HEAD, DELETE or OPTIONS only when told its length.
    const framed = body === undefined || Object.keys(headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h))
      ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: framed, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** HTTP Basic credentials as Git sends them (any user name, the key as password). */
export const basicAuth = (password: string) => `Basic ${Buffer.from(`git:${password}`).toString('base64')}`;

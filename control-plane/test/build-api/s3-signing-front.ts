/**
 * A front for the test S3 server (builder/test/helpers/s3-server.ts) that checks presigned URLs
 * as S3 does: s3rver 3.7 accepts any Signature V4 with a known access key (its V4 check is
 * "unimplemented": it checks only the key id and `X-Amz-Expires`), so a URL used for another key
 * or with another size would pass it. This front recomputes the signature of every request that
 * carries `X-Amz-Signature` (AWS Signature V4, query form, unsigned payload) from the request as
 * it arrives, refuses a mismatch or an expired URL with 403, and passes everything else to
 * s3rver untouched. A test hook can refuse PUTs of chosen keys (a store failing).
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why a presigned request is refused, or undefined when its signature and expiry hold. */
function presignProblem(req: http.IncomingMessage, url: URL, secret: string): string | undefined {
  const q = url.searchParams;
  const amzDate = q.get('X-Amz-Date') ?? '';
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const [, day, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const at = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (Date.now() > at + Number(q.get('X-Amz-Expires')) * 1000) return 'Request has expired';
  const query = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature').map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).sort().join('&');
  const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('');
  const canonical = [req.method, url.pathname, query, headers, signed.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === q.get('X-Amz-Signature') ? undefined : 'SignatureDoesNotMatch';
}

export interface SigningFront {
  endpoint: string;
  /** Bucket keys of the presigned PUTs let through, in order. */
  puts: string[];
  /** Presigned PUTs of keys it matches are answered 500 (a store failing). */
  refuse?: (key: string) => boolean;
  close(): Promise<void>;
}

export async function startSigningFront(s3Endpoint: string, bucket: string, secret: string): Promise<SigningFront> {
  const target = new URL(s3Endpoint);
  const front: SigningFront = { endpoint: '', puts: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const refuse = (status: number, message: string) => { req.resume(); res.writeHead(status, { 'content-type': 'application/xml' }).end(`<Error><Code>${status === 403 ? 'AccessDenied' : 'InternalError'}</Code><Message>${message}</Message></Error>`); };
    if (url.searchParams.has('X-Amz-Signature')) {
      const problem = presignProblem(req, url, secret);
      if (problem) return refuse(403, problem);
      const key = decodeURIComponent(url.pathname.slice(`/${bucket}/`.length));
      if (req.method === 'PUT' && front.refuse?.(key)) return refuse(500, `refused ${key}`);
      if (req.method === 'PUT') front.puts.push(key);
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => { if (!res.headersSent) res.writeHead(502).end(); else res.destroy(); });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return front;
}

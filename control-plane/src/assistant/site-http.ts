/**
 * Small HTTP helpers for the routes the site server answers itself (assistant, MCP): JSON
 * bodies with a size cap and a deadline, and the API's `{ error, message }` error body.
 */
import type http from 'node:http';
import { AppError, payloadTooLarge } from '../errors.ts';
import { assertPlainJson } from '../http/validate.ts';

/** Sends `body` as JSON with `status` and extra headers. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends an error as `{ error, message }` (plus its extra fields and headers); unknown errors are `500 internal_error` without details. */
export function sendError(res: http.ServerResponse, err: unknown): void {
  const e = err instanceof AppError ? err : new AppError(500, 'internal_error', 'Internal server error', { expose: false });
  if (res.headersSent) { res.end(); return; }
  sendJson(res, e.status, { error: e.code, message: e.expose ? e.message : 'Internal server error', ...(e.extra ?? {}) }, e.headers ?? {});
}

/** 405 with the methods a path takes. */
export function methodNotAllowed(method: string | undefined, allow: string): AppError {
  return new AppError(405, 'method_not_allowed', `Unexpected method ${method}; this path takes ${allow}`, { headers: { Allow: allow } });
}

/**
 * Reads a JSON object body: `Content-Type` must be JSON (415), at most `maxBytes` (413, also
 * from `Content-Length` before reading), complete within `timeoutMs` (408 `request_timeout`),
 * well-formed and free of operator or prototype keys (400).
 */
export async function readJsonBody(req: http.IncomingMessage, maxBytes: number, timeoutMs: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new AppError(415, 'unsupported_media_type', `Unexpected Content-Type "${type}"; expected application/json`);
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) throw payloadTooLarge(`${maxBytes} byte`);
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => { reject(new AppError(408, 'request_timeout', `The request body did not arrive within ${timeoutMs / 1000} s`, { headers: { Connection: 'close' } })); req.destroy(); }, timeoutMs);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) { clearTimeout(timer); reject(payloadTooLarge(`${maxBytes} byte`)); req.pause(); return; }
      chunks.push(c);
    });
    req.on('end', () => { clearTimeout(timer); resolve(Buffer.concat(chunks).toString('utf8')); });
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
  });
  let value: unknown;
  try { value = JSON.parse(text); } catch { throw new AppError(400, 'invalid_request', 'body: Malformed JSON; expected a JSON object'); }
  assertPlainJson(value);
  return value;
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a method token it does not know,
 * such as `FOO`; headers over `--max-http-header-size`; a malformed request line or header) are
 * answered in the API's `{ error, message }` shape instead of Node's bare `400 Bad Request`, and
 * the connection is closed, as the parser's state is lost.
 */
import type { Socket } from 'node:net';
import { KNOWN_METHODS } from './method-guard.ts';

interface ClientError extends Error { code?: string }

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The status and body for a parser error code (llhttp's `HPE_*`, Node's `ERR_HTTP_*`). */
export function clientErrorBody(code: string | undefined): { status: number; body: { error: string; message: string } } {
  switch (code) {
    case 'HPE_INVALID_METHOD':
      // The parser stops at the method, before the path: no Allow can be computed, so no 405.
      return { status: 400, body: { error: 'invalid_request', message: `Unexpected method; expected one of ${KNOWN_METHODS.join(', ')}` } };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, body: { error: 'request_header_fields_too_large', message: 'headers: Unexpected size; expected at most 16 KB of request headers' } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, body: { error: 'request_timeout', message: 'Unexpected pause; expected the whole request in time' } };
    default:
      return { status: 400, body: { error: 'invalid_request', message: 'Malformed HTTP request; expected an HTTP/1.1 request line and headers' } };
  }
}

/** The server's `clientError` listener. */
export function answerClientError(err: ClientError, socket: Socket): void {
  // A reset peer cannot be answered; a socket with a response under way must not get a second one.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, body } = clientErrorBody(err.code);
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

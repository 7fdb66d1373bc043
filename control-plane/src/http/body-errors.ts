/**
 * Errors raised while reading a request body (koa-body → co-body / raw-body / inflation for JSON
 * and forms, formidable for multipart, zlib for `Content-Encoding`) are the client's fault, not
 * the server's: they map to `400 invalid_request`, `413 payload_too_large` or
 * `415 unsupported_media_type` with a message naming the rule, never to a 500.
 */
import { AppError, payloadTooLarge } from '../errors.ts';
import { UPLOAD_LIMIT_BYTES } from './limits.ts';

/** formidable's internal error codes (formidable/src/FormidableError.js) this module reads. */
const FORMIDABLE = {
  aborted: 1002,
  maxFieldsSizeExceeded: 1006,
  maxFieldsExceeded: 1007,
  biggerThanTotalMaxFileSize: 1009,
  noEmptyFiles: 1010,
  missingContentType: 1011,
  missingMultipartBoundary: 1013,
  unknownTransferEncoding: 1014,
  maxFilesExceeded: 1015,
  biggerThanMaxFileSize: 1016,
} as const;

const TOO_LARGE: readonly number[] = [
  FORMIDABLE.maxFieldsSizeExceeded, FORMIDABLE.maxFieldsExceeded, FORMIDABLE.biggerThanTotalMaxFileSize,
  FORMIDABLE.maxFilesExceeded, FORMIDABLE.biggerThanMaxFileSize,
];

const bad = (message: string) => new AppError(400, 'invalid_request', message);

interface ParserError { name?: unknown; code?: unknown; httpCode?: unknown; errno?: unknown; status?: unknown; type?: unknown; message?: unknown }

/** A formidable error (it carries `httpCode` and a numeric `code` from 1000 up). */
function multipartError(err: ParserError): AppError | undefined {
  if (typeof err.httpCode !== 'number' || typeof err.code !== 'number' || err.code < 1000 || err.code > 1099) return undefined;
  // 5xx from formidable are its own set-up failures (a plugin, the upload directory): ours.
  if (err.httpCode >= 500) return undefined;
  if (err.httpCode === 413 || TOO_LARGE.includes(err.code)) return payloadTooLarge(`${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB upload`);
  switch (err.code) {
    case FORMIDABLE.missingMultipartBoundary:
      return bad('Content-Type: Missing boundary parameter; expected multipart/form-data; boundary=<boundary>');
    case FORMIDABLE.missingContentType:
      return bad('Content-Type: Required; expected multipart/form-data; boundary=<boundary>');
    case FORMIDABLE.noEmptyFiles:
      return bad('body: Unexpected empty file; expected a file of at least 1 byte');
    case FORMIDABLE.aborted:
      return bad('body: Unexpected end of the request; expected the whole multipart body');
    case FORMIDABLE.unknownTransferEncoding:
      return bad('body: Unexpected Content-Transfer-Encoding in a part; expected binary, 7bit, 8bit or none');
    default:
      return bad('body: Malformed multipart/form-data; expected parts with a Content-Disposition name, separated by the boundary');
  }
}

/** A decompression failure of a `Content-Encoding: gzip | deflate | br` body (zlib's codes). */
function encodingError(err: ParserError): AppError | undefined {
  const code = typeof err.code === 'string' ? err.code : '';
  if (typeof err.errno !== 'number' || !/^(?:Z_|ERR__ERROR_|ERR_BROTLI)/.test(code)) return undefined;
  return bad('body: Unexpected bytes for the Content-Encoding; expected a body compressed with it (gzip, deflate or br)');
}

/** raw-body's typed errors (`type`, 4xx `status`) and inflation's unknown-encoding error. */
function streamError(err: ParserError): AppError | undefined {
  const unsupported = /^Unsupported Content-Encoding: (.*)$/.exec(typeof err.message === 'string' ? err.message : '');
  if (err.status === 415 && unsupported) {
    return new AppError(415, 'unsupported_media_type', `Content-Encoding: Unexpected ${JSON.stringify(unsupported[1].slice(0, 40))}; expected gzip, deflate, br or identity`);
  }
  switch (err.type) {
    case 'request.aborted':
      return bad('body: Unexpected end of the request; expected the whole body');
    case 'request.size.invalid':
      return bad('body: Unexpected length; expected as many bytes as Content-Length says');
    default:
      return undefined;
  }
}

/** The API error for a body-reading failure, or undefined when `err` is not one. */
export function bodyError(err: unknown): AppError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as ParserError;
  return multipartError(e) ?? encodingError(e) ?? streamError(e);
}

/**
 * The first middleware: every error becomes `{ error, message }`. Known errors keep their
 * status and code; errors raised while reading a body are mapped to `invalid_request` (malformed
 * JSON, multipart or compression), `payload_too_large` or `unsupported_media_type`
 * (body-errors.ts); anything else is logged and answered as `500 internal_error`
 * without leaking internals. A route may give its own error shape (`formatError`, route.ts):
 * SCIM's, which keeps `error` and `message`.
 */
import type Koa from 'koa';
import { AppError, internal, payloadTooLarge } from '../errors.ts';
import { bodyError } from './body-errors.ts';

export type Logger = (message: string, err?: unknown) => void;

function toAppError(err: any): AppError {
  if (err instanceof AppError) return err;
  const parsing = bodyError(err);
  if (parsing) return parsing;
  const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413 || err?.type === 'entity.too.large' || /maxFileSize|exceeded, received/i.test(String(err?.message))) {
    return payloadTooLarge(err?.limit ? `${err.limit} byte` : 'size');
  }
  const proto = /forbidden (prototype|constructor) property/i.exec(String(err?.message));
  if (status === 400 && proto) {
    const key = proto[1] === 'prototype' ? '__proto__' : 'constructor';
    return new AppError(400, 'invalid_request', `${key}: Unexpected key; operator and prototype keys are not allowed`);
  }
  if (err?.type === 'entity.parse.failed' || (status === 400 && /JSON|Unexpected token|invalid json/i.test(String(err?.message)))) {
    return new AppError(400, 'invalid_request', `body: Malformed JSON; expected a JSON object`);
  }
  if (status === 415) return new AppError(415, 'unsupported_media_type', String(err.message));
  if (status === 400 && err?.expose) return new AppError(400, 'invalid_request', String(err.message));
  return internal(err);
}

export function errorMiddleware(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (raw) {
      const err = toAppError(raw);
      if (err.status >= 500) log(`${ctx.method} ${ctx.path} failed`, raw);
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.headers ?? {})) ctx.set(k, v);
      const format = ctx.state.formatError as ((e: AppError) => { body: Record<string, unknown>; contentType: string }) | undefined;
      if (format) {
        const shown = err.expose ? err : new AppError(err.status, err.code, 'Internal server error', { extra: err.extra });
        const { body, contentType } = format(shown);
        ctx.body = body;
        ctx.type = contentType;
        return;
      }
      ctx.body = { error: err.code, message: err.expose ? err.message : 'Internal server error', ...(err.extra ?? {}) };
    }
  };
}

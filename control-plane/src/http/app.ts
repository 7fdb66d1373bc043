/**
 * Assembles the Koa application from route definitions: CORS, the error edge, body parsing,
 * authentication and scope checks, request validation, and (optionally) response validation.
 */
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { authenticate, type AuthenticatedKey } from '../auth/api-keys.ts';
import { hasScope } from '../auth/scopes.ts';
import { AppError, forbidden, internal } from '../errors.ts';
import { errorMiddleware, type Logger } from './error-middleware.ts';
import type { Deps, RouteDef } from './route.ts';
import { assertPlainJson, validate } from './validate.ts';

/** JSON bodies above this size are refused with 413. */
export const JSON_LIMIT = '1mb';
/** Uploads (logo, asset) above this size are refused with 413 (spec section 8). */
export const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AppOptions {
  deps: Deps;
  routes: RouteDef[];
  log?: Logger;
  /** Check every response body against its declared schema; a mismatch is a 500. Tests turn it on. */
  validateResponses?: boolean;
  /** Extra middleware mounted after the API routes (e.g. the git smart-HTTP server). */
  extra?: Koa.Middleware[];
}

const jsonBody = koaBody({ jsonLimit: JSON_LIMIT, jsonStrict: true, includeUnparsed: true, text: false, urlencoded: false });
const multipartBody = koaBody({
  multipart: true, json: false, text: false, urlencoded: true,
  formidable: { maxFileSize: UPLOAD_LIMIT_BYTES, maxFiles: 4, allowEmptyFiles: false, keepExtensions: false },
});
const rawBody = koaBody({ json: false, multipart: false, text: false, urlencoded: false, includeUnparsed: true, jsonLimit: JSON_LIMIT });

export function createApp(opts: AppOptions): Koa {
  const log = opts.log ?? ((msg, err) => console.error(msg, err));
  const app = new Koa();
  app.proxy = true;
  app.silent = true;
  const router = new Router({ prefix: '/v1' });

  for (const def of opts.routes) {
    const parser = !def.body && def.method !== 'put' && def.method !== 'post' && def.method !== 'patch'
      ? undefined
      : def.bodyType === 'multipart' ? multipartBody : def.bodyType === 'raw' ? rawBody : jsonBody;
    // Authentication and scope come before any body is read, so an unauthenticated caller can
    // make the server parse (or store, for uploads) nothing.
    const guard: Koa.Middleware = async (ctx, next) => {
      const auth = def.auth === 'none' ? undefined : await authenticate(opts.deps.m, ctx.get('authorization') || undefined, opts.deps.now());
      if (auth && def.auth !== 'key' && def.auth !== 'none' && !hasScope(auth.scopes, def.auth)) throw forbidden(def.auth);
      ctx.state.auth = auth;
      await next();
    };
    const handler: Koa.Middleware = async (ctx) => {
      const auth = ctx.state.auth as AuthenticatedKey | undefined;
      const params = def.params ? validate(def.params, ctx.params, 'path') : {};
      const query = def.query ? validate(def.query, { ...ctx.query }, 'query') : {};
      let body: unknown;
      if (def.body) {
        const raw = def.bodyType === 'multipart' ? { ...((ctx.request.body as object) ?? {}), ...((ctx.request.files as object) ?? {}) } : ctx.request.body;
        if (def.bodyType !== 'multipart') assertPlainJson(raw);
        body = validate(def.body, raw ?? {}, 'body');
      }
      const out = await def.handler({ ctx, params, query, body, auth: auth!, deps: opts.deps });
      const status = out.status ?? 200;
      if (opts.validateResponses) {
        const spec = def.responses[status];
        if (!spec) throw internal(new Error(`${def.operationId} answered undeclared status ${status}`));
        if (spec.schema) {
          const check = spec.schema.safeParse(out.body);
          if (!check.success) throw internal(new Error(`${def.operationId} ${status} response does not match its schema: ${check.error.message}`));
        }
      }
      for (const [k, v] of Object.entries(out.headers ?? {})) ctx.set(k, v);
      ctx.status = status;
      if (out.body !== undefined) ctx.body = out.body;
    };
    const chain: Koa.Middleware[] = parser ? [guard, withDefaultJsonType, parser, handler] : [guard, handler];
    router.register(def.path, [def.method.toUpperCase()], chain as any);
  }

  app.use(cors({
    origin: (ctx) => ctx.get('origin') || '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Accept'],
    exposeHeaders: ['Retry-After', 'Location'],
    maxAge: 600,
    keepHeadersOnError: true,
  }));
  app.use(errorMiddleware(log));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new AppError(405, 'method_not_allowed', 'Method not allowed for this path') as any }));
  for (const mw of opts.extra ?? []) app.use(mw);
  return app;
}

/** A body sent with no Content-Type is read as JSON, the API's only body type besides uploads. */
const withDefaultJsonType: Koa.Middleware = async (ctx, next) => {
  if (!ctx.get('content-type') && Number(ctx.get('content-length') || 0) > 0) ctx.request.headers['content-type'] = 'application/json';
  await next();
};

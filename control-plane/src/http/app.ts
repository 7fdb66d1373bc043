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
import { AppError, forbidden, internal, invalid, payloadTooLarge } from '../errors.ts';
import { errorMiddleware, type Logger } from './error-middleware.ts';
import { FORM_FIELDS_BYTES, JSON_LIMIT, MAX_FORM_FILES, MULTIPART_LIMIT_BYTES, UPLOAD_LIMIT_BYTES } from './limits.ts';
import { methodFallback, routesWithAllow } from './method-guard.ts';
import type { Deps, RouteDef } from './route.ts';
import { assertPlainJson, validate } from './validate.ts';

/** Re-exported for modules that read bodies themselves (uploads, downloads). */
export { JSON_LIMIT, UPLOAD_LIMIT_BYTES };

export interface AppOptions {
  deps: Deps;
  routes: RouteDef[];
  log?: Logger;
  /** Check every response body against its declared schema; a mismatch is a 500. Tests turn it on. */
  validateResponses?: boolean;
  /** Extra middleware mounted after the API routes (e.g. the git smart-HTTP server). */
  extra?: Koa.Middleware[];
}

/** The JSON body parser every JSON route uses (also the dashboard's). */
export const jsonBody = koaBody({ jsonLimit: JSON_LIMIT, jsonStrict: true, includeUnparsed: true, text: false, urlencoded: false });
const multipartBody = koaBody({
  multipart: true, json: false, text: false, urlencoded: true,
  formidable: { maxFileSize: UPLOAD_LIMIT_BYTES, maxFiles: MAX_FORM_FILES, maxFieldsSize: FORM_FIELDS_BYTES, allowEmptyFiles: false, keepExtensions: false },
});
/** `$`-keys SCIM bodies carry (RFC 7643 `$ref`); SCIM handlers read named fields only. */
const SCIM_KEYS: ReadonlySet<string> = new Set(['$ref']);

/** SCIM clients send `application/scim+json` (RFC 7644 section 3.1); plain JSON is read too. */
const scimBody = koaBody({ jsonLimit: JSON_LIMIT, jsonStrict: true, includeUnparsed: true, text: false, urlencoded: false, jsonTypes: ['application/json', 'application/scim+json'] });
const rawBody = koaBody({ json: false, multipart: false, text: false, urlencoded: false, includeUnparsed: true, jsonLimit: JSON_LIMIT });

export function createApp(opts: AppOptions): Koa {
  const log = opts.log ?? ((msg, err) => console.error(msg, err));
  const app = new Koa();
  // Forwarded headers count only behind a proxy the operator says is there, and only the entry it
  // wrote (the rightmost): see client-address.ts. ctx.ip then feeds audit entries and Git.
  app.proxy = opts.deps.env.TRUST_PROXY;
  app.maxIpsCount = 1;
  app.silent = true;
  const router = new Router({ prefix: '/v1' });

  for (const def of opts.routes) {
    const parser = !def.body && def.method !== 'put' && def.method !== 'post' && def.method !== 'patch'
      ? undefined
      : def.bodyType === 'multipart' ? multipartBody : def.bodyType === 'raw' ? rawBody : def.bodyType === 'scim' ? scimBody : jsonBody;
    // Authentication and scope come before any body is read, so an unauthenticated caller can
    // make the server parse (or store, for uploads) nothing.
    const guard: Koa.Middleware = async (ctx, next) => {
      if (def.formatError) ctx.state.formatError = def.formatError;
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
        // formidable files a part without a name under "null"; no route has such a field.
        if (def.bodyType === 'multipart' && Object.hasOwn(raw as object, 'null')) throw invalid('body', 'Unexpected part without a name; expected Content-Disposition: form-data; name="<field>"');
        if (def.bodyType !== 'multipart') assertPlainJson(raw, def.bodyType === 'scim' ? SCIM_KEYS : undefined);
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
    const typeCheck = def.bodyType === 'scim' ? scimJsonOnly : def.body && (def.bodyType ?? 'json') === 'json' ? jsonOnly : withDefaultJsonType;
    const chain: Koa.Middleware[] = parser ? [guard, typeCheck, parser, handler] : [guard, handler];
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
  app.use(methodFallback());
  app.use(routesWithAllow(router));
  for (const mw of opts.extra ?? []) app.use(mw);
  return app;
}

const hasBody = (ctx: Koa.Context) => Number(ctx.get('content-length') || 0) > 0 || Boolean(ctx.get('transfer-encoding'));

/**
 * A body sent with no Content-Type is read as JSON, the API's only body type besides uploads. A
 * multipart body is refused from its Content-Length when it exceeds what a form may carry:
 * formidable caps files and fields but buffers a part's headers without limit.
 */
const withDefaultJsonType: Koa.Middleware = async (ctx, next) => {
  if (!ctx.get('content-type') && hasBody(ctx)) ctx.request.headers['content-type'] = 'application/json';
  if (ctx.is('multipart') && Number(ctx.get('content-length') || 0) > MULTIPART_LIMIT_BYTES) throw payloadTooLarge(`${MULTIPART_LIMIT_BYTES} byte`);
  await next();
};

/** Like {@link jsonOnly}, for SCIM routes: `application/scim+json` or `application/json`, UTF-8. */
const scimJsonOnly: Koa.Middleware = async (ctx, next) => {
  if (hasBody(ctx)) {
    if (!ctx.get('content-type')) ctx.request.headers['content-type'] = 'application/scim+json';
    if (!ctx.is('application/scim+json', 'json')) {
      const type = JSON.stringify((ctx.request.type || ctx.get('content-type')).slice(0, 60));
      throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected ${type}; expected application/scim+json`);
    }
    const charset = ctx.request.charset;
    if (charset && !/^utf-?8$/i.test(charset)) {
      throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected charset ${JSON.stringify(charset.slice(0, 40))}; expected utf-8`);
    }
  }
  await next();
};

/**
 * Routes that take a JSON body: one of another type (which the parser would leave unread, so the
 * route would see `{}`), or JSON in a charset other than UTF-8 (which it would mis-decode), is
 * `415 unsupported_media_type`.
 */
export const jsonOnly: Koa.Middleware = async (ctx, next) => {
  if (hasBody(ctx)) {
    if (!ctx.get('content-type')) ctx.request.headers['content-type'] = 'application/json';
    if (!ctx.is('json')) {
      const type = JSON.stringify((ctx.request.type || ctx.get('content-type')).slice(0, 60));
      throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected ${type}; expected application/json`);
    }
    const charset = ctx.request.charset;
    if (charset && !/^utf-?8$/i.test(charset)) {
      throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected charset ${JSON.stringify(charset.slice(0, 40))}; expected utf-8`);
    }
  }
  await next();
};

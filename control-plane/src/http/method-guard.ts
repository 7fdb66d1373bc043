/**
 * Answers requests no route took because of their method, in the API's error shape:
 *
 * - a path some route serves, asked with another method (one the server knows or not, e.g.
 *   `PROPFIND`, `TRACE`): `405 method_not_allowed` with an `Allow` header listing its methods;
 * - a path no route serves: `404 not_found`, whatever the method;
 * - `OPTIONS` without a CORS preflight on a served path: `200` with `Allow`.
 *
 * No answer here is a 5xx: RFC 9110 allows 501 for a method the server recognises for no
 * resource, but a client's unusual method is not a server failure, and monitoring counts 5xx as ours.
 *
 * Every router mounts through {@link routesWithAllow}, which notes the methods its routes take at
 * the request's path, so the answer covers `/v1`, `/internal` and any other router alike.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { AppError } from '../errors.ts';

/** The methods routes of the server take. */
export const KNOWN_METHODS: readonly string[] = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

const ALLOW_KEY = Symbol('allowed methods at this path');

/** Methods the routers seen so far take at the request's path. */
function allowed(ctx: Koa.Context): Set<string> {
  const state = ctx.state as Record<symbol, Set<string> | undefined>;
  return (state[ALLOW_KEY] ??= new Set());
}

/** Records that a route at the request's path takes `methods` (for handlers outside routers). */
export function allowAt(ctx: Koa.Context, methods: readonly string[]): void {
  for (const m of methods) allowed(ctx).add(m);
}

/** `router.routes()`, recording which methods its routes take at the request's path. */
export function routesWithAllow(router: Router): Koa.Middleware {
  const routes = router.routes() as unknown as Koa.Middleware;
  return (ctx, next) => {
    for (const layer of router.match(ctx.path, ctx.method).path) allowAt(ctx, layer.methods);
    return routes(ctx, next);
  };
}

/** `405 method_not_allowed` naming the methods the path takes (also sent as `Allow`). */
export function methodNotAllowed(method: string, allow: readonly string[]): AppError {
  const list = [...allow].sort().join(', ');
  return new AppError(405, 'method_not_allowed', `Unexpected method ${method} for this path; expected one of ${list}`, { headers: { Allow: list } });
}

/** The middleware, mounted before the routers: it acts on what they left unanswered. */
export function methodFallback(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    // Answered: by a route, or by a handler that wrote the response itself (Git smart HTTP).
    if (ctx.respond === false || ctx.headerSent || ctx.status !== 404 || ctx.body !== undefined) return;
    const allow = [...allowed(ctx)].filter((m) => KNOWN_METHODS.includes(m));
    if (allow.length > 0 && ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.set('Allow', [...allow, 'OPTIONS'].sort().join(', '));
      ctx.body = '';
      return;
    }
    if (allow.length > 0) throw methodNotAllowed(ctx.method, allow);
  };
}

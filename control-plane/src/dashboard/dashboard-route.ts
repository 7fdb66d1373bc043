/**
 * Dashboard route definitions: like the `/v1` ones (http/route.ts), one object per endpoint
 * holds its schemas, responses and handler, and the same object registers the route, validates
 * the request and (in tests) the response, and describes the endpoint in the dashboard's
 * OpenAPI document. Auth is a session (requireSession, with CSRF on state changes) holding the
 * route's `permission` (roles/roles.ts; `'signed_in'` for what every member may do to their own
 * session); `public` routes (sign-in, claim, accept-invite) take none. A session route must name
 * its permission: the role table test lists every route without one.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { ZodType } from 'zod';
import type { Role } from '../db/models/membership.ts';
import { internal } from '../errors.ts';
import { jsonBody, jsonOnly } from '../http/app.ts';
import type { Deps, HandlerOutput, ResponseSpec } from '../http/route.ts';
import { assertPlainJson, validate } from '../http/validate.ts';
import type { Permission } from '../roles/roles.ts';
import { requirePermission, requireRole, requireSession, type DashboardSession } from './session-auth.ts';

export interface DashboardHandlerInput<P, Q, B> {
  ctx: Koa.Context;
  params: P;
  query: Q;
  body: B;
  /** The signed-in session; absent only on `public` routes. */
  session: DashboardSession;
  deps: Deps;
}

export interface DashboardRouteDef<P = any, Q = any, B = any> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path below `/dashboard/api` in Koa form, e.g. `/projects/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** `session` (default): a signed-in session; `public`: no session (and no CSRF token). */
  auth?: 'session' | 'public';
  /**
   * What the session must hold (`session` routes): a permission, or `'signed_in'` for calls every
   * member makes about themselves (their session, signing out, leaving). Without it the route
   * answers any session and fails the role table test.
   */
  permission?: Permission | 'signed_in';
  /** Deprecated: built-in roles allowed. Use `permission`, which custom roles and SCIM groups reach. */
  roles?: Role[];
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  responses: Record<number, ResponseSpec>;
  handler(input: DashboardHandlerInput<P, Q, B>): Promise<HandlerOutput>;
}

/** Identity helper that keeps the generic types of a definition. */
export function defineDashboardRoute<P, Q, B>(def: DashboardRouteDef<P, Q, B>): DashboardRouteDef<P, Q, B> {
  return def;
}

/** What `registerXRoutes(router, deps)` receives: add definitions, or use `koa` for anything else (streams). */
export interface DashboardRouter {
  /** The Koa router mounted at `/dashboard/api`; its routes must use requireSession themselves. */
  koa: Router;
  /** Registers a definition (and lists it in the dashboard's OpenAPI document). */
  add(def: DashboardRouteDef): void;
  /** Every definition added so far. */
  readonly defs: DashboardRouteDef[];
}

export function createDashboardRouter(koa: Router, opts: { validateResponses?: boolean } = {}): DashboardRouter {
  const defs: DashboardRouteDef[] = [];
  return {
    koa, defs,
    add(def) {
      defs.push(def);
      const chain: Koa.Middleware[] = [];
      if ((def.auth ?? 'session') === 'session') chain.push(requireSession);
      if (def.permission && def.permission !== 'signed_in') chain.push(requirePermission(def.permission));
      if (def.roles) chain.push(requireRole(...def.roles));
      if (def.body) chain.push(jsonOnly, jsonBody);
      chain.push(async (ctx) => {
        const params = def.params ? validate(def.params, ctx.params, 'path') : {};
        const query = def.query ? validate(def.query, { ...ctx.query }, 'query') : {};
        let body: unknown;
        if (def.body) {
          assertPlainJson(ctx.request.body);
          body = validate(def.body, ctx.request.body ?? {}, 'body');
        }
        const deps = ctx.state.dashboardDeps as Deps;
        const out = await def.handler({ ctx, params, query, body, session: ctx.state.session as DashboardSession, deps });
        const status = out.status ?? 200;
        if (opts.validateResponses) {
          const spec = def.responses[status];
          if (!spec) throw internal(new Error(`${def.operationId} answered undeclared status ${status}`));
          const check = spec.schema?.safeParse(out.body);
          if (check && !check.success) throw internal(new Error(`${def.operationId} ${status} response does not match its schema: ${check.error.message}`));
        }
        for (const [k, v] of Object.entries(out.headers ?? {})) ctx.set(k, v);
        ctx.status = status;
        if (out.body !== undefined) ctx.body = out.body;
      });
      koa.register(def.path, [def.method.toUpperCase()], chain as any);
    },
  };
}

/**
 * The dashboard's authentication: the `folio_session` cookie, never an API key. Other modules
 * protect their dashboard routes with {@link requireSession} and {@link requirePermission}
 * (route definitions say `permission: 'projects.write'` instead, dashboard-route.ts):
 *
 * ```ts
 * router.get('/things', requireSession, requirePermission('projects.read'), handler);
 * ```
 *
 * `requireSession` reads the services it needs from `ctx.state.dashboardDeps`, which the
 * dashboard router sets for every request under `/dashboard/api` (routes.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { clientIp } from '../analytics/visit.ts';
import type { Role } from '../db/models/membership.ts';
import type { Env } from '../env.ts';
import { AppError, unauthorized } from '../errors.ts';
import { builtInRolesWith, can, type Permission } from '../roles/roles.ts';
import type { Deps } from '../http/route.ts';
import { findSession, type DashboardSession } from './session-store.ts';

export const SESSION_COOKIE = 'folio_session';
export const CSRF_HEADER = 'x-csrf-token';
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type { DashboardSession };

/** The deps of the dashboard router, as requireSession finds them. */
export function dashboardDeps(ctx: Koa.Context): Deps {
  const deps = ctx.state.dashboardDeps as Deps | undefined;
  if (!deps) throw new Error('requireSession used outside the dashboard router');
  return deps;
}

/** The session token the request's cookie carries, if any. */
export function readSessionToken(ctx: Koa.Context): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * True when the client reached us over HTTPS: the socket is TLS, or (with TRUST_PROXY=true)
 * the proxy in front says so. Without TRUST_PROXY a forged X-Forwarded-Proto is ignored.
 */
export function requestIsHttps(ctx: Koa.Context, env: Env): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  return env.TRUST_PROXY && (ctx.get('x-forwarded-proto').split(',')[0] ?? '').trim().toLowerCase() === 'https';
}

/** The caller's address for rate limiting (X-Forwarded-For only with TRUST_PROXY=true). */
export function requestIp(ctx: Koa.Context, env: Env): string {
  return clientIp(ctx.req, env.TRUST_PROXY) ?? 'unknown';
}

function cookie(ctx: Koa.Context, env: Env, value: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${requestIsHttps(ctx, env) ? '; Secure' : ''}`;
}

/** Sets the session cookie (lifetime SESSION_MAX_DAYS; the server enforces the idle expiry). */
export function setSessionCookie(ctx: Koa.Context, env: Env, token: string): void {
  ctx.append('Set-Cookie', cookie(ctx, env, token, env.SESSION_MAX_DAYS * 86_400));
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(ctx: Koa.Context, env: Env): void {
  ctx.append('Set-Cookie', cookie(ctx, env, '', 0));
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The live session the request's cookie carries, if any (a stale cookie is told to go). */
export async function currentSession(ctx: Koa.Context, deps: Deps): Promise<DashboardSession | undefined> {
  const token = readSessionToken(ctx);
  const session = token ? await findSession(deps.m, deps.env, token, deps.now()) : undefined;
  // A stale cookie is dropped, so the browser stops sending it.
  if (token && !session) clearSessionCookie(ctx, deps.env);
  return session;
}

/** 403 `csrf_failed` unless `X-CSRF-Token` equals the session's token (POST, PUT, PATCH, DELETE). */
export function assertCsrfToken(ctx: Koa.Context, session: DashboardSession): void {
  if (!UNSAFE_METHODS.has(ctx.method)) return;
  const presented = ctx.get(CSRF_HEADER);
  if (!presented) throw new AppError(403, 'csrf_failed', 'Missing X-CSRF-Token header; expected the csrf_token of GET /dashboard/api/session');
  if (!sameToken(presented, session.csrfToken)) throw new AppError(403, 'csrf_failed', 'X-CSRF-Token does not match this session; expected the csrf_token of GET /dashboard/api/session');
}

/**
 * Koa middleware: 401 `unauthorized` without a live session; for POST, PUT, PATCH and DELETE,
 * 403 `csrf_failed` unless `X-CSRF-Token` equals the session's token. Sets
 * `ctx.state.session` ({@link DashboardSession}).
 */
export const requireSession: Koa.Middleware = async (ctx, next) => {
  const session = await currentSession(ctx, dashboardDeps(ctx));
  if (!session) throw unauthorized('Not signed in; sign in to the dashboard first');
  assertCsrfToken(ctx, session);
  ctx.state.session = session;
  await next();
};

/** `a, b or c`. */
function orList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * 403 `forbidden_role` for a session that lacks `permission`, naming the built-in roles that
 * hold it: "This action needs the owner or admin role; you are a member".
 */
export function forbiddenPermission(session: Pick<DashboardSession, 'roleLabel'>, permission: Permission): AppError {
  return new AppError(403, 'forbidden_role', `This action needs the ${orList(builtInRolesWith(permission))} role; you are ${session.roleLabel}`);
}

/** Throws {@link forbiddenPermission} unless the session holds `permission`. */
export function assertCan(session: DashboardSession, permission: Permission): void {
  if (!can(session, permission)) throw forbiddenPermission(session, permission);
}

/** Koa middleware (after requireSession): 403 `forbidden_role` unless the session holds `permission`. */
export function requirePermission(permission: Permission): Koa.Middleware {
  return async (ctx, next) => {
    const session = ctx.state.session as DashboardSession | undefined;
    if (!session) throw new Error('requirePermission used before requireSession');
    assertCan(session, permission);
    await next();
  };
}

/**
 * Koa middleware (after requireSession): 403 `forbidden_role` unless the session's role is one of
 * `roles`. Deprecated: use {@link requirePermission}, which custom roles and SCIM groups reach.
 */
export function requireRole(...roles: Role[]): Koa.Middleware {
  return async (ctx, next) => {
    const session = ctx.state.session as DashboardSession | undefined;
    if (!session) throw new Error('requireRole used before requireSession');
    if (!roles.includes(session.role)) {
      throw new AppError(403, 'forbidden_role', `This action needs the ${roles.join(' or ')} role; you are ${session.roleLabel}`);
    }
    await next();
  };
}

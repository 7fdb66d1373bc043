/**
 * Runs a public API handler for a dashboard session, so the dashboard shares the `/v1` logic
 * (validation, quotas, serializers) instead of copying it. The session acts with every scope of
 * its organization; the dashboard route's permission decides who may call it.
 */
import type { AuthenticatedKey } from '../auth/api-keys.ts';
import type { HandlerOutput, RouteDef } from '../http/route.ts';
import type { Permission } from '../roles/roles.ts';
import { defineDashboardRoute, type DashboardHandlerInput, type DashboardRouteDef } from './dashboard-route.ts';

/** The key-shaped identity a session presents to `/v1` handlers. */
export function sessionAsKey(session: { sessionId: string; orgId: string }): AuthenticatedKey {
  return { id: `session:${session.sessionId.slice(0, 12)}`, orgId: session.orgId, scopes: null };
}

/** Calls a `/v1` route's handler with the session's organization; `Location` headers (which point into /v1) are dropped. */
export async function callV1<P, Q, B>(def: RouteDef<P, Q, B>, input: DashboardHandlerInput<any, any, any>, over: { params?: P; query?: Q; body?: B } = {}): Promise<HandlerOutput> {
  const out = await def.handler({
    ctx: input.ctx, params: over.params ?? input.params, query: over.query ?? input.query, body: over.body ?? input.body,
    auth: sessionAsKey(input.session), deps: input.deps,
  });
  return { status: out.status, body: out.body };
}

/** A dashboard route that is a `/v1` route as is (same path below the prefix, schemas and answers). */
export function passThrough(def: RouteDef, opts: { operationId: string; permission: Permission }): DashboardRouteDef {
  return defineDashboardRoute({
    method: def.method, path: def.path, operationId: opts.operationId, summary: def.summary,
    description: `${def.description ?? ''} Same as \`/v1${def.path}\`.`.trim(), permission: opts.permission,
    params: def.params, query: def.query, body: def.body, responses: def.responses,
    handler: (input) => callV1(def, input),
  });
}

/** The `/v1` route with `operationId` from a list (throws at start-up if it is gone). */
export function v1Route(routes: RouteDef[], operationId: string): RouteDef {
  const def = routes.find((r) => r.operationId === operationId);
  if (!def) throw new Error(`no /v1 route ${operationId}`);
  return def;
}

/**
 * The dashboard-internal API under `/dashboard/api`: sessions only. Any request there that
 * carries an `Authorization` header (an API key) is 401 before anything else, public routes
 * included; then the origin and body-type checks of request-guard.ts; answers are never cached. Each module registers through `registerXRoutes(router, deps)`.
 */
import Router from '@koa/router';
import { registerAiSettingsRoutes } from './ai-settings-routes.ts';
import { registerInlineAiRoutes } from './inline-ai-routes.ts';
import { registerAgentRoutes } from './agent-routes.ts';
import { registerWorkflowRoutes } from './workflow-routes.ts';
import type Koa from 'koa';
import { z } from 'zod';
import { unauthorized } from '../errors.ts';
import { routesWithAllow } from '../http/method-guard.ts';
import { buildOpenApi } from '../http/openapi.ts';
import type { Deps, RouteDef } from '../http/route.ts';
import { registerAcceptInviteRoutes } from './accept-invite-routes.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerAuditLogRoutes } from './audit-log-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { registerDeploymentRoutes } from './deployment-routes.ts';
import { registerDomainRoutes } from './domain-routes.ts';
import { registerEditorRoutes } from './editor-routes.ts';
import { registerGithubRoutes } from './github-routes.ts';
import { registerMemberRoutes } from './member-routes.ts';
import { registerPlanRoutes } from './plan-routes.ts';
import { registerProjectRoutes } from './project-routes.ts';
import { registerRoleRoutes } from './role-routes.ts';
import { humanizeError } from './human-messages.ts';
import { guardDashboardRequest } from './request-guard.ts';
import { createDashboardRouter, defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import type { SignInLimitOptions } from './sign-in-limits.ts';
import { registerSitePasswordRoutes } from './site-password-routes.ts';
import { registerReaderAuthRoutes } from './reader-auth-routes.ts';
import { registerSsoRoutes } from './sso-routes.ts';
import { registerWebhookRoutes } from './webhook-routes.ts';
import { registerChatNotificationRoutes } from './chat-notification-routes.ts';

export const DASHBOARD_API_PREFIX = '/dashboard/api';

export interface DashboardApiOptions {
  /** Check every response against its declared schema (tests). */
  validateResponses?: boolean;
  /** Sign-in rate limits (defaults in sign-in-limits.ts). */
  signInLimits?: Partial<SignInLimitOptions>;
  /** Modules added by other features (paid-plan settings), registered after the built-in ones. */
  modules?: Array<(router: DashboardRouter, deps: Deps) => void>;
}

/** The definitions as the OpenAPI builder reads them: a session route is documented like a keyed one, minus the key. */
function asOpenApiRoutes(router: DashboardRouter): RouteDef[] {
  return router.defs.map((d) => ({ ...d, auth: d.auth === 'public' ? 'none' : 'key', tags: ['Dashboard (internal)'] }) as unknown as RouteDef);
}

/** Registers every dashboard route on a new router (the definitions are what the role table test reads). */
export function buildDashboardRouter(deps: Deps, opts: DashboardApiOptions = {}): DashboardRouter {
  const koa = new Router({ prefix: DASHBOARD_API_PREFIX });
  const router = createDashboardRouter(koa, { validateResponses: opts.validateResponses });
  registerAuthRoutes(router, deps, opts.signInLimits);
  registerApiKeyRoutes(router, deps);
  registerProjectRoutes(router, deps);
  registerDeploymentRoutes(router, deps);
  registerPlanRoutes(router, deps);
  registerMemberRoutes(router, deps);
  registerRoleRoutes(router, deps);
  registerAcceptInviteRoutes(router, deps);
  registerDomainRoutes(router, deps);
  registerGithubRoutes(router, deps);
  // Paid-plan settings (each gated by the entitlement resolver).
  for (const register of [registerSitePasswordRoutes, registerReaderAuthRoutes, registerWebhookRoutes, registerChatNotificationRoutes, registerAuditLogRoutes]) register(router, deps);
  registerSsoRoutes(router, deps);
  registerAiSettingsRoutes(router, deps);
  registerEditorRoutes(router, deps);
  registerInlineAiRoutes(router, deps);
  registerAgentRoutes(router, deps);
  registerWorkflowRoutes(router, deps);
  for (const register of opts.modules ?? []) register(router, deps);
  router.add(defineDashboardRoute({
    method: 'get', path: '/openapi.json', operationId: 'dashboardOpenApi', summary: 'This internal API\'s OpenAPI 3.1 description', auth: 'public',
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
    async handler() {
      return {
        body: buildOpenApi(asOpenApiRoutes(router), {
          title: 'Folio dashboard-internal API', version: '1.0.0', serverUrl: `${new URL(deps.env.publicApiUrl).origin}${DASHBOARD_API_PREFIX}`,
          description: 'Internal to the Folio dashboard and subject to change: use `/v1` with an API key for integrations. '
            + 'Every call needs the `folio_session` cookie (except sign-in, the owner claim and invitation links); '
            + 'an `Authorization` header is refused with 401. POST, PUT, PATCH and DELETE also need `X-CSRF-Token`: '
            + 'the `csrf_token` of `GET /session` (403 `csrf_failed` otherwise). A POST, PUT, PATCH or DELETE that a browser marks as coming '
            + 'from another site or origin (`Sec-Fetch-Site` other than `same-origin`, an `Origin` other than the dashboard\'s) is 403 `csrf_failed`, '
            + 'sign-in included; a body must be `application/json` (415 `unsupported_media_type`). Errors are `{ error, message }`.',
        }),
      };
    },
  }));
  return router;
}

/** Builds the middleware serving `/dashboard/api`. */
export function dashboardApi(deps: Deps, opts: DashboardApiOptions = {}): Koa.Middleware {
  const { koa } = buildDashboardRouter(deps, opts);
  const routes = routesWithAllow(koa);
  return async (ctx, next) => {
    if (ctx.path !== DASHBOARD_API_PREFIX && !ctx.path.startsWith(`${DASHBOARD_API_PREFIX}/`)) return next();
    ctx.set('Cache-Control', 'no-store');
    if (ctx.get('authorization')) throw unauthorized('The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys');
    guardDashboardRequest(ctx, deps.env);
    ctx.state.dashboardDeps = deps;
    try {
      await routes(ctx, next);
    } catch (err) {
      throw humanizeError(err);
    }
  };
}

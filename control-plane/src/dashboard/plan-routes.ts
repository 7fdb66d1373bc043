/**
 * Plan and usage, and the analytics pages: the same resolver and handlers as `/v1`.
 * Every role may read them.
 */
import { z } from 'zod';
import { analyticsRoutes } from '../api/analytics.ts';
import { entitlementsSchema } from '../api/schemas.ts';
import { resolveEntitlements } from '../entitlements/resolver.ts';
import { PLAN_IDS } from '../db/models/organization.ts';
import type { Deps } from '../http/route.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { passThrough, v1Route } from './v1-handlers.ts';

export function registerPlanRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/plan', operationId: 'dashboardGetPlan', permission: 'plan.read', summary: 'Plan, features and quota usage, and a downgrade waiting for the period end',
    description: 'The entitlements object of `GET /v1/me/entitlements`, plus `pending_plan` and `pending_plan_at` (null unless a downgrade is scheduled).',
    responses: { 200: { description: 'Entitlements', schema: entitlementsSchema.extend({ pending_plan: z.enum(PLAN_IDS).nullable(), pending_plan_at: z.string().nullable() }) } },
    async handler({ session, deps }) {
      const entitlements = await resolveEntitlements(deps.m, session.orgId, deps.now());
      const org = await deps.m.Organization.findById(session.orgId).lean();
      return { body: { ...entitlements, pending_plan: org?.pending_plan ?? null, pending_plan_at: org?.pending_plan_at?.toISOString() ?? null } };
    },
  }));
  for (const [op, id] of [['getAnalyticsOverview', 'dashboardAnalyticsOverview'], ['getAnalyticsBreakdown', 'dashboardAnalyticsBreakdown'], ['getAnalyticsAi', 'dashboardAnalyticsAi']]) {
    router.add(passThrough(v1Route(analyticsRoutes, op), { operationId: id, permission: 'analytics.read' }));
  }
}

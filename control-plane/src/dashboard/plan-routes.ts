/**
 * Plan and usage, and the analytics pages: the same resolver and handlers as `/v1`.
 * Every role may read them.
 */
import { z } from 'zod';
import { analyticsRoutes } from '../api/analytics.ts';
import { entitlementsSchema } from '../api/schemas.ts';
import { BOOLEAN_FEATURES, PLAN_NAMES, PLAN_ORDER, QUOTAS, planIncludes } from '../entitlements/plans.ts';
import { resolveEntitlements } from '../entitlements/resolver.ts';
import { PLAN_IDS } from '../db/models/organization.ts';
import type { Deps } from '../http/route.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { passThrough, v1Route } from './v1-handlers.ts';

const planSchema = z.object({
  id: z.enum(PLAN_IDS), name: z.string(),
  features: z.array(z.string()).describe('Boolean features the plan includes'),
  quotas: z.record(z.string(), z.number().nullable()).describe('Each quota on this plan; null is unlimited'),
});

/** The plan table (entitlements/plans.ts) as the plan page compares it. */
function planTable() {
  return PLAN_ORDER.map((id) => ({
    id, name: PLAN_NAMES[id],
    features: Object.entries(BOOLEAN_FEATURES).filter(([, min]) => planIncludes(id, min)).map(([f]) => f),
    quotas: Object.fromEntries(Object.entries(QUOTAS).map(([q, byPlan]) => [q, byPlan[id]])),
  }));
}

export function registerPlanRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/plan', operationId: 'dashboardGetPlan', permission: 'plan.read', summary: 'Plan, features and quota usage, and a downgrade waiting for the period end',
    description: 'The entitlements object of `GET /v1/me/entitlements`, plus `pending_plan` and `pending_plan_at` (null unless a downgrade is scheduled).',
    responses: { 200: { description: 'Entitlements', schema: entitlementsSchema.extend({
      pending_plan: z.enum(PLAN_IDS).nullable(), pending_plan_at: z.string().nullable(),
      upgrade_url: z.string().describe('Where to compare plans and upgrade'),
      plans: z.array(planSchema).describe('Every plan, cheapest first, with what it includes (the plan table)'),
    }) } },
    async handler({ session, deps }) {
      const entitlements = await resolveEntitlements(deps.m, session.orgId, deps.now());
      const org = await deps.m.Organization.findById(session.orgId).lean();
      return { body: {
        ...entitlements, pending_plan: org?.pending_plan ?? null, pending_plan_at: org?.pending_plan_at?.toISOString() ?? null,
        upgrade_url: deps.env.UPGRADE_URL, plans: planTable(),
      } };
    },
  }));
  for (const [op, id] of [['getAnalyticsOverview', 'dashboardAnalyticsOverview'], ['getAnalyticsBreakdown', 'dashboardAnalyticsBreakdown'], ['getAnalyticsAi', 'dashboardAnalyticsAi']]) {
    router.add(passThrough(v1Route(analyticsRoutes, op), { operationId: id, permission: 'analytics.read' }));
  }
}

/**
 * `GET /dashboard/api/audit-log` (audit/list.ts): the organization's audit log for owners and
 * admins, on plans with `audit_log` (team; 402 `plan_required` otherwise). Entries are recorded
 * on every plan, so an organization that upgrades sees its history from before.
 */
import { z } from 'zod';
import { auditQuerySchema, listAudit } from '../audit/list.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import type { Deps } from '../http/route.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

const entry = z.object({
  id: z.string(), action: z.string(),
  actor: z.object({ user_id: z.string().nullable(), label: z.string().nullable() }),
  target: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  details: z.record(z.string(), z.unknown()).nullable(),
  ip_hash: z.string().nullable().describe('Keyed hash of the source address: equal hashes mean the same address'),
  at: z.string(),
});

export function registerAuditLogRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/audit-log', operationId: 'dashboardAuditLog', permission: 'audit.read', summary: 'The organization\'s audit log',
    description: 'Team plan. Newest first; filter by `action` and `actor` (a user id, `operator` or `api key <id>`); page with `before` = the previous page\'s `next_before`.', query: auditQuerySchema,
    responses: { 200: { description: 'A page of entries', schema: z.object({ data: z.array(entry), next_before: z.string().nullable() }) } },
    async handler({ query, session, deps }) {
      await requireFeature(deps.m, session.orgId, 'audit_log', deps.now(), deps.env.UPGRADE_URL);
      return { body: await listAudit(deps.m, session.orgId, query) };
    },
  }));
}

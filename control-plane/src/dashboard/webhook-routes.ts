/**
 * Outgoing webhook endpoints under `/dashboard/api/projects/{id}/webhooks`
 * (outgoing-webhooks/endpoints.ts): creating needs `outgoing_webhooks` (402 `plan_required`);
 * listing, the delivery log and deleting always work. Owners and admins change them.
 */
import { z } from 'zod';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams, uuidParam } from '../api/schemas.ts';
import { WEBHOOK_EVENTS } from '../db/models/webhook-endpoint.ts';
import type { Deps } from '../http/route.ts';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, webhookEndpointBody } from '../outgoing-webhooks/endpoints.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

const endpoint = z.object({ id: z.string(), url: z.string(), events: z.array(z.enum(WEBHOOK_EVENTS)), created_at: z.string() });
const hookParams = z.object({ id: uuidParam, hookId: uuidParam });
const delivery = z.object({
  id: z.string(), event: z.enum(WEBHOOK_EVENTS), event_id: z.string(), status: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string(), next_attempt_at: z.string().nullable(),
  attempts: z.array(z.object({ at: z.string(), status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number() })),
});

export function registerWebhookRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/webhooks', operationId: 'dashboardListWebhooks', permission: 'projects.read', summary: 'List the project\'s webhook endpoints',
    params: projectParams, responses: { 200: { description: 'Endpoints (secrets are never shown again)', schema: z.object({ data: z.array(endpoint) }) } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      return { body: { data: await listEndpoints(deps.m, project._id) } };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/webhooks', operationId: 'dashboardCreateWebhook', permission: 'settings.manage', summary: 'Register a webhook endpoint',
    description: 'Pro plan. `events` defaults to every event. The URL must resolve to public addresses only. The answer carries the signing `secret`, shown once.', params: projectParams, body: webhookEndpointBody,
    responses: { 201: { description: 'Registered', schema: endpoint.extend({ secret: z.string() }) } },
    async handler({ ctx, params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const created = await createEndpoint({ m: deps.m, now: deps.now(), upgradeUrl: deps.env.UPGRADE_URL, allowHosts: deps.services.fetchAllowHosts }, session.orgId, project._id, body);
      await auditAction(ctx, deps, session, 'webhook.created', { type: 'webhook', id: created.id, name: created.url });
      return { status: 201, body: created };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/webhooks/:hookId', operationId: 'dashboardDeleteWebhook', permission: 'settings.manage', summary: 'Remove a webhook endpoint and its deliveries', params: hookParams, responses: { 204: { description: 'Removed' } },
    async handler({ ctx, params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      await deleteEndpoint(deps.m, project._id, params.hookId);
      await auditAction(ctx, deps, session, 'webhook.deleted', { type: 'webhook', id: params.hookId });
      return { status: 204 };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/webhooks/:hookId/deliveries', operationId: 'dashboardListWebhookDeliveries', permission: 'projects.read', summary: 'The delivery log of an endpoint',
    description: 'Newest first: each event with its status and every attempt\'s response code or error.',
    params: hookParams, query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }).strict(),
    responses: { 200: { description: 'Deliveries', schema: z.object({ data: z.array(delivery) }) } },
    async handler({ params, query, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      return { body: { data: await listDeliveries(deps.m, project._id, params.hookId, query.limit) } };
    },
  }));
}

/** Every route of the public API, in one list: it feeds the router and the OpenAPI document. */
import { z } from 'zod';
import { aiModelApiRoutes } from '../ai-settings/ai-settings-routes.ts';
import { buildOpenApi, type WebhookDoc } from '../http/openapi.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { analyticsRoutes } from './analytics.ts';
import { chatNotificationRoutes } from './chat-notifications.ts';
import { assetRoutes } from './asset.ts';
import { deploymentRoutes } from './deployments.ts';
import { entitlementRoutes } from './entitlements.ts';
import { logoRoutes } from './logo.ts';
import { pageRoutes } from './pages.ts';
import { projectRoutes } from './projects.ts';
import { scimRoutes } from './scim.ts';
import { webhookRoutes } from './webhooks.ts';

export const API_VERSION = '1.0.0';

/**
 * Builds the route list; modules added later (deployments, pages, uploads) pass theirs in, and
 * `webhookDocs` (default none) describes the outgoing webhook events in the OpenAPI document.
 */
export function apiRoutes(extra: RouteDef[] = [], webhookDocs: () => Record<string, WebhookDoc> = () => ({})): RouteDef[] {
  const routes: RouteDef[] = [
    ...projectRoutes,
    ...deploymentRoutes,
    ...pageRoutes,
    ...entitlementRoutes,
    ...scimRoutes,
    ...logoRoutes,
    ...assetRoutes,
    ...webhookRoutes,
    ...analyticsRoutes,
    ...chatNotificationRoutes,
    ...aiModelApiRoutes,
    ...extra,
  ];
  const all: RouteDef[] = [...routes];
  const openapi: RouteDef = defineRoute({
    method: 'get', path: '/openapi.json', operationId: 'getOpenApi', summary: 'This API\'s OpenAPI 3.1 description', tags: ['Meta'],
    description: 'Public (no key needed): the machine-readable description of every endpoint.',
    auth: 'none', responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
    async handler({ deps }): Promise<{ body: Record<string, unknown> }> {
      return { body: buildOpenApi(all, { title: 'Folio API', version: API_VERSION, serverUrl: deps.env.publicApiUrl, description: 'Projects, deployments, pages, analytics and entitlements of Folio docs sites. Every call but this one needs `Authorization: Bearer svc_…`. Errors are `{ error, message }`.', webhooks: webhookDocs() }) };
    },
  });
  all.push(openapi);
  return all;
}

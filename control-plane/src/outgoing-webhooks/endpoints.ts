/**
 * Outgoing webhook endpoints of a project (dashboard `/projects/{id}/webhooks`). Creating one
 * needs `outgoing_webhooks` (pro) from the entitlement resolver; listing, reading the delivery
 * log and deleting always work, so an organization that downgraded can still see and remove
 * what it set up (its deliveries are paused, see deliver.ts). The URL must be http(s) and
 * resolve to public addresses only (checked again at every delivery).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import { WEBHOOK_EVENTS } from '../db/models/webhook-endpoint.ts';
import { AppError, notFound } from '../errors.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { checkedAddress } from '../outbound/safe-fetch.ts';

/** Endpoints one project may have. */
export const MAX_ENDPOINTS = 10;

/** Body of `POST /projects/{id}/webhooks`; `events` defaults to all three. */
export const webhookEndpointBody = z.object({
  url: z.string().url().max(2000),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).optional(),
}).strict();

export interface EndpointView { id: string; url: string; events: string[]; created_at: string }

const view = (e: { _id: string; url: string; events: string[]; created_at: Date }): EndpointView =>
  ({ id: e._id, url: e.url, events: [...e.events], created_at: new Date(e.created_at).toISOString() });

interface Ctx { m: Models; now: Date; upgradeUrl: string; allowHosts?: readonly string[] }

/** Registers an endpoint; the answer carries its signing `secret`, shown this once. */
export async function createEndpoint(c: Ctx, orgId: string, projectId: string, body: z.infer<typeof webhookEndpointBody>): Promise<EndpointView & { secret: string }> {
  await requireFeature(c.m, orgId, 'outgoing_webhooks', c.now, c.upgradeUrl);
  await checkedAddress(new URL(body.url), 'url', c.allowHosts);
  if (await c.m.WebhookEndpoint.countDocuments({ project_id: projectId }) >= MAX_ENDPOINTS) {
    throw new AppError(409, 'conflict', `A project can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
  }
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const created = await c.m.WebhookEndpoint.create({
    org_id: orgId, project_id: projectId, url: body.url, events: body.events ?? [...WEBHOOK_EVENTS], secret, created_at: c.now,
  });
  return { ...view(created.toObject()), secret };
}

export async function listEndpoints(m: Models, projectId: string): Promise<EndpointView[]> {
  const rows = await m.WebhookEndpoint.find({ project_id: projectId }).sort({ created_at: 1, _id: 1 }).lean();
  return rows.map(view);
}

/** Removes an endpoint and its queued and logged deliveries. */
export async function deleteEndpoint(m: Models, projectId: string, endpointId: string): Promise<void> {
  const gone = await m.WebhookEndpoint.findOneAndDelete({ _id: endpointId, project_id: projectId }).lean();
  if (!gone) throw notFound('webhook');
  await m.WebhookMessage.deleteMany({ endpoint_id: endpointId });
}

/** The delivery log of an endpoint, newest first. */
export async function listDeliveries(m: Models, projectId: string, endpointId: string, limit: number) {
  if (!await m.WebhookEndpoint.exists({ _id: endpointId, project_id: projectId })) throw notFound('webhook');
  const rows = await m.WebhookMessage.find({ endpoint_id: endpointId }).sort({ created_at: -1, _id: -1 }).limit(limit).lean();
  return rows.map((r) => ({
    id: r._id,
    event: r.event,
    event_id: r.event_key,
    status: r.status,
    created_at: new Date(r.created_at).toISOString(),
    next_attempt_at: r.status === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
    attempts: (r.attempts ?? []).map((a) => ({ at: new Date(a.at!).toISOString(), status_code: a.status_code ?? null, error: a.error ?? null, duration_ms: a.duration_ms ?? 0 })),
  }));
}

/**
 * Turns deployment queue events into outgoing webhook messages: `deployment.queued` when a
 * deployment is queued, `deployment.succeeded` / `deployment.failed` when it ends (a sync whose
 * commit was already live ends `succeeded` without a build). One message per subscribed
 * endpoint, created once per deployment and event however often the queue reports it.
 */
import type { Deployment, Models, Project } from '../db/models/index.ts';
import type { WebhookEvent } from '../db/models/webhook-endpoint.ts';
import { deploymentJson } from '../api/serialize.ts';
import { queueEvents } from '../deploy/queue-events.ts';

/** The public URL of a project's site. */
export type SiteUrlOf = (project: { slug: string; custom_domain?: string | null }) => string;

/** The JSON body of an event (documented in the OpenAPI document under `webhooks`). */
export function eventBody(event: WebhookEvent, d: Deployment, project: Pick<Project, '_id' | 'slug' | 'name'>, siteUrl: string, at: Date) {
  return {
    id: `${d._id}.${event}`,
    type: event,
    created_at: at.toISOString(),
    data: {
      project: { id: project._id, slug: project.slug, name: project.name, site_url: siteUrl },
      deployment: deploymentJson(d),
    },
  };
}

/** Queues `event` of deployment `deploymentId` for every endpoint of its project that subscribed. */
export async function queueWebhookEvent(m: Models, deploymentId: string, event: WebhookEvent, now: Date, siteUrlOf: SiteUrlOf): Promise<number> {
  const d = await m.Deployment.findById(deploymentId).lean();
  if (!d) return 0;
  const endpoints = await m.WebhookEndpoint.find({ project_id: d.project_id, events: event }).lean();
  if (endpoints.length === 0) return 0;
  const project = await m.Project.findById(d.project_id, { slug: 1, name: 1, custom_domain: 1 }).lean();
  if (!project) return 0;
  const body = JSON.stringify(eventBody(event, d as Deployment, project, siteUrlOf(project), now));
  let queued = 0;
  for (const e of endpoints) {
    try {
      await m.WebhookMessage.create({
        endpoint_id: e._id, org_id: e.org_id, project_id: e.project_id, event, event_key: `${d._id}.${event}`,
        body, created_at: now, next_attempt_at: now,
      });
      queued++;
    } catch (err) {
      // Already queued for this endpoint (a trigger joined a queued deployment): nothing to do.
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
  }
  return queued;
}

/**
 * Subscribes to the queue's events for `m`; `onQueued` runs after messages were created (the
 * scheduler delivers at once). Returns the unsubscribe function.
 */
export function watchDeployments(m: Models, opts: { now(): Date; siteUrlOf: SiteUrlOf; onQueued(): void; onError(err: unknown): void }): () => void {
  const run = (deploymentId: string, event: WebhookEvent) => {
    queueWebhookEvent(m, deploymentId, event, opts.now(), opts.siteUrlOf)
      .then((n) => { if (n > 0) opts.onQueued(); })
      .catch(opts.onError);
  };
  const events = queueEvents(m);
  const queued = ({ deploymentId }: { deploymentId: string }) => run(deploymentId, 'deployment.queued');
  const finished = ({ deploymentId, status }: { deploymentId: string; status: 'deployed' | 'failed' }) => run(deploymentId, status === 'deployed' ? 'deployment.succeeded' : 'deployment.failed');
  const skipped = ({ deploymentId }: { deploymentId: string }) => run(deploymentId, 'deployment.succeeded');
  events.on('queued', queued);
  events.on('finished', finished);
  events.on('skipped', skipped);
  return () => { events.off('queued', queued); events.off('finished', finished); events.off('skipped', skipped); };
}

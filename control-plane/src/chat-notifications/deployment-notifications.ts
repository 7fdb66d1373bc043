/**
 * Chat notifications of deployments: when the queue reports a deployment finished (deployed or
 * failed), a message for every channel that subscribed, with the failed pages and their errors
 * (at most 10), a link to the deployment in the dashboard and one to the live site. A sync that
 * found its commit already live builds nothing and sends nothing.
 */
import type { Models } from '../db/models/index.ts';
import { queueEvents } from '../deploy/queue-events.ts';
import { deploymentMessage } from './event-messages.ts';
import { anyChannelFor, queueChatMessage } from './queue-chat.ts';

export interface DeploymentNotifyOptions {
  now(): Date;
  siteUrlOf(project: { slug: string; custom_domain?: string | null }): string;
  deploymentUrlOf(projectId: string, deploymentId: string): string;
  /** Runs after messages were queued (the scheduler sends them at once). */
  onQueued(): void;
  onError(err: unknown): void;
}

/** Queues the chat messages of deployment `deploymentId`'s outcome; returns how many. */
export async function notifyDeployment(m: Models, deploymentId: string, opts: Omit<DeploymentNotifyOptions, 'onQueued' | 'onError'>): Promise<number> {
  const d = await m.Deployment.findById(deploymentId).lean();
  if (!d || (d.status !== 'deployed' && d.status !== 'failed')) return 0;
  if (!await anyChannelFor(m, d.project_id, d.status === 'failed' ? 'deployment.failed' : 'deployment.succeeded')) return 0;
  const project = await m.Project.findById(d.project_id, { name: 1, slug: 1, custom_domain: 1 }).lean();
  if (!project) return 0;
  const msg = deploymentMessage(d, project, { deploymentUrl: opts.deploymentUrlOf(project._id, d._id), siteUrl: opts.siteUrlOf(project) }, opts.now());
  return queueChatMessage(m, d.project_id, `${d._id}.${msg.event}`, msg, opts.now());
}

/** Subscribes to the queue's `finished` events of `m`; returns the unsubscribe function. */
export function watchDeploymentsForChat(m: Models, opts: DeploymentNotifyOptions): () => void {
  const finished = ({ deploymentId }: { deploymentId: string }) => {
    notifyDeployment(m, deploymentId, opts).then((n) => { if (n > 0) opts.onQueued(); }).catch(opts.onError);
  };
  const events = queueEvents(m);
  events.on('finished', finished);
  return () => { events.off('finished', finished); };
}

/**
 * A redeploy: a fresh build of a project's production site from its branch head, even when that
 * commit is already live (a trigger by hand is forced, queue.ts), and the workers woken for it.
 * The dashboard's and the API's trigger (api/deployments.ts) and a reader sign-in change that
 * alters what the build publishes (dashboard/reader-auth-routes.ts) queue it here.
 */
import type { Deployment, Models } from '../db/models/index.ts';
import { enqueueDeployment } from './queue.ts';

interface RedeployDeps { m: Models; now(): Date; services: { wakeWorkers?(): void } }

export async function queueRedeploy(deps: RedeployDeps, projectId: string, trigger: 'manual' | 'api'): Promise<Deployment> {
  const d = await enqueueDeployment(deps.m, projectId, { trigger }, deps.now());
  deps.services.wakeWorkers?.();
  return d;
}

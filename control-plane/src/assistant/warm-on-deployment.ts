/**
 * Builds a site's assistant index as soon as its deployment finishes, so the first question
 * after a deployment is answered from a ready index instead of waiting for one to be built
 * (tens of seconds on a 5,000-page site). Warm-ups run one at a time: building is CPU work on
 * the control plane's event loop (it yields between batches), and a burst of deployments should
 * not all build at once while sites are being served.
 */
import { queueEvents, type QueueEventMap } from '../deploy/queue-events.ts';
import type { Models } from '../db/models/index.ts';
import { logEvent } from '../log/structured-log.ts';
import type { SiteIndex } from './site-index.ts';

/** Subscribes to finished deployments of `m`'s queue; returns the unsubscribe call. */
export function warmOnDeployment(m: Models, sites: SiteIndex): () => void {
  let chain: Promise<void> = Promise.resolve();
  const onFinished = ({ projectId, status }: QueueEventMap['finished'][0]): void => {
    if (status !== 'deployed') return;
    chain = chain.then(() => sites.warm(projectId)).catch((err: unknown) => {
      // The next question builds it instead; a warm-up failure never affects the deployment.
      logEvent('error', 'assistant.warm_failed', `assistant index of project ${projectId} not built: ${(err as Error).message}`, { project: projectId });
    });
  };
  const events = queueEvents(m);
  events.on('finished', onFinished);
  return () => { events.off('finished', onFinished); };
}

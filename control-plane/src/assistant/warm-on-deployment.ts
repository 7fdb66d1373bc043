/**
 * Builds a site's assistant index as soon as its deployment finishes, so the first question
 * after a deployment is answered from a ready index instead of waiting for one to be built
 * (tens of seconds on a 5,000-page site). Warm-ups run one at a time: building is CPU work on
 * the control plane's event loop (it yields between batches), and a burst of deployments should
 * not all build at once while sites are being served.
 *
 * A warm-up gives way to its site's next build: when a worker claims a production deployment of
 * the project, the warm-up in progress stops (its content is about to be replaced, and on a
 * 2-core machine it took the CPU that build needed: a 10,000-page site's pushes were live in
 * 2.5-3.9 s with it running beside them, 1.4 s without). The pages it analysed are kept, and the
 * next deployment's warm-up, once no build of the project is running, analyses only the rest
 * (bm25-index.ts). A question meanwhile builds the index itself, as without a warm-up.
 */
import { queueEvents, type QueueEventMap } from '../deploy/queue-events.ts';
import type { Models } from '../db/models/index.ts';
import { logEvent } from '../log/structured-log.ts';
import { isAbort, type SiteIndex } from './site-index.ts';

/**
 * A claim older than this no longer holds a warm-up back: its outcome may have been reported to
 * another control plane, whose events this one never sees.
 */
export const CLAIM_HOLDS_MS = 30 * 60_000;

/** Subscribes to `m`'s queue; returns the unsubscribe call. */
export function warmOnDeployment(m: Models, sites: SiteIndex, now: () => number = Date.now): () => void {
  let chain: Promise<void> = Promise.resolve();
  // Production builds claimed and not ended, by project: deployment id → when claimed.
  const building = new Map<string, Map<string, number>>();
  // The warm-up queued or running for a project.
  const warming = new Map<string, AbortController>();

  const busy = (projectId: string): boolean => {
    const claims = building.get(projectId);
    for (const [id, at] of claims ?? []) if (now() - at > CLAIM_HOLDS_MS) claims!.delete(id);
    if (claims?.size === 0) building.delete(projectId);
    return building.has(projectId);
  };
  const ended = (deploymentId: string) => {
    for (const [projectId, claims] of building) if (claims.delete(deploymentId) && claims.size === 0) building.delete(projectId);
  };
  const warm = (projectId: string) => {
    warming.get(projectId)?.abort(); // one queued before is for older content
    const controller = new AbortController();
    warming.set(projectId, controller);
    chain = chain.then(() => (controller.signal.aborted ? undefined : sites.warm(projectId, controller.signal))).catch((err: unknown) => {
      // The next question builds it instead; a warm-up failure never affects the deployment.
      if (!isAbort(err)) logEvent('error', 'assistant.warm_failed', `assistant index of project ${projectId} not built: ${(err as Error).message}`, { project: projectId });
    }).finally(() => { if (warming.get(projectId) === controller) warming.delete(projectId); });
  };

  const onClaimed = ({ deploymentId, projectId, preview }: QueueEventMap['claimed'][0]): void => {
    // A preview publishes elsewhere: the production index it would not replace goes on.
    if (preview) return;
    let claims = building.get(projectId);
    if (!claims) building.set(projectId, claims = new Map());
    claims.set(deploymentId, now());
    warming.get(projectId)?.abort();
  };
  // Deployed or failed: a failed build leaves the site as it was, whose warm-up may have been stopped for it.
  const onFinished = ({ deploymentId, projectId }: QueueEventMap['finished'][0]): void => {
    ended(deploymentId);
    if (!busy(projectId)) warm(projectId);
  };
  const onEnded = ({ deploymentId }: { deploymentId: string }) => ended(deploymentId);
  const events = queueEvents(m);
  events.on('claimed', onClaimed);
  events.on('finished', onFinished);
  events.on('retried', onEnded);
  events.on('released', onEnded);
  return () => {
    events.off('claimed', onClaimed);
    events.off('finished', onFinished);
    events.off('retried', onEnded);
    events.off('released', onEnded);
    for (const controller of warming.values()) controller.abort();
  };
}

/**
 * Claim cost for `npm run bench:fleet`: how long one claim takes with a given number of runnable
 * deployments queued (each of its own project and organization), and how much of the database
 * process's CPU it used when the database runs apart.
 */
import { createOrganization } from '@folio/control-plane';
import type { Models } from '@folio/control-plane/db/models/index.ts';
import { claimJob } from '@folio/control-plane/deploy/claim-job.ts';
import { enqueueDeployment } from '@folio/control-plane/deploy/queue.ts';

export interface ClaimCost {
  /** Runnable deployments queued when the claims ran (those of earlier sizes left on a shared database included). */
  queued: number;
  seconds: number;
  dbCpuSeconds: number;
}

const CLAIMS = 10;

/** Queues `queued` runnable deployments, then times claims; `dbCpu` reads the database's CPU seconds (0 when in this process). */
export async function claimCost(m: Models, queued: number, tag: string, dbCpu: () => number): Promise<ClaimCost> {
  const now = new Date();
  for (let i = 0; i < queued; i++) {
    const org = await createOrganization(m, `claim-org-${tag}-${queued}-${i}`, 'free');
    const [project] = await m.Project.insertMany([{ org_id: org._id, name: 'C', slug: `claim-${tag}-${queued}-${i}` }]);
    await enqueueDeployment(m, project._id as string, { trigger: 'push', commitSha: 'a'.repeat(40) }, now);
  }
  const queuedNow = await m.Deployment.countDocuments({ status: 'queued' });
  const cpu0 = dbCpu();
  const t0 = performance.now();
  for (let i = 0; i < CLAIMS; i++) await claimJob(m, `bench-claim-${tag}-${i}`, new Date(), 60_000);
  return { queued: queuedNow, seconds: (performance.now() - t0) / 1000 / CLAIMS, dbCpuSeconds: (dbCpu() - cpu0) / CLAIMS };
}

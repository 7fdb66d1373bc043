import type { Model } from 'mongoose';
import type { Deployment } from './models/deployment.ts';
import type { Project } from './models/project.ts';
import type { ClaimHead } from './models/claim-head.ts';

/**
 * Open deployments from before claims read the queue by organization (`queue_org` unset) get
 * their project's organization, and that organization's queue head is marked as having work
 * (deploy/queue-heads.ts), so a claim finds them. Runs at start-up; does nothing once done.
 */
export async function backfillQueueOrgs(m: { Deployment: Model<Deployment>; Project: Model<Project>; ClaimHead: Model<ClaimHead> }): Promise<number> {
  const open = await m.Deployment.find({ status: { $in: ['queued', 'building'] }, queue_org: null }, { project_id: 1, started_at: 1, next_attempt_at: 1 }).lean();
  if (!open.length) return 0;
  const projects = await m.Project.find({ _id: { $in: [...new Set(open.map((d) => d.project_id))] } }, { org_id: 1 }).lean();
  const orgOf = new Map(projects.map((p) => [String(p._id), p.org_id]));
  for (const d of open) {
    const org = orgOf.get(d.project_id);
    if (!org) continue;
    await m.Deployment.updateOne({ _id: d._id, queue_org: null }, { $set: { queue_org: org } });
    await m.ClaimHead.updateOne({ _id: org }, { $min: { ready_at: d.next_attempt_at ?? d.started_at, since: d.started_at }, $inc: { seq: 1 }, $setOnInsert: { finish: 0 } }, { upsert: true });
  }
  return open.length;
}

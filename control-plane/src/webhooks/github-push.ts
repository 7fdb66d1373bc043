/**
 * What a verified GitHub `push` delivery does: every project connected to that repository
 * whose synced branch was pushed gets a sync queued at the pushed commit.
 */
import type { Models } from '../db/models/index.ts';
import { enqueueDeployment } from '../deploy/queue.ts';

/** The fields of a push payload this module reads. */
export interface PushPayload {
  ref?: unknown;
  after?: unknown;
  deleted?: unknown;
  repository?: { full_name?: unknown } | null;
}

export type PushOutcome =
  | { status: 'queued'; deployments: string[] }
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string };

const SHA = /^[0-9a-f]{40}$/;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the project already has `sha` in hand: a queued or building deployment of it, or,
 * with nothing queued or building, a last successful deployment of it. A push body re-sent under
 * a new delivery id then queues nothing; a genuine push back to an older commit (after a newer
 * one was deployed) still deploys it.
 */
async function alreadyHandled(m: Models, projectId: string, sha: string): Promise<boolean> {
  const active = await m.Deployment.find({ project_id: projectId, status: { $in: ['queued', 'building'] } }, { commit_sha: 1 }).lean();
  if (active.some((d) => d.commit_sha === sha)) return true;
  if (active.length > 0) return false;
  const live = await m.Deployment.findOne({ project_id: projectId, status: 'deployed' }, { commit_sha: 1 }).sort({ finished_at: -1, _id: -1 }).lean();
  return live?.commit_sha === sha;
}

/**
 * Queues syncs for a push: projects whose `github_repo` equals `repository.full_name`
 * (case-insensitive, as GitHub names are) and whose `github_branch` (default `main`) is the
 * pushed `refs/heads/<branch>`, unless the project already has that commit queued, building or
 * live ({@link alreadyHandled}); when every such project has, the push is a `duplicate`, as a
 * replayed delivery id is. Tag pushes, branch deletions and unknown repositories are ignored
 * with a reason the delivery log on GitHub shows.
 */
export async function handlePush(m: Models, payload: PushPayload, now: Date): Promise<PushOutcome> {
  const repo = typeof payload.repository?.full_name === 'string' ? payload.repository.full_name : '';
  const ref = typeof payload.ref === 'string' ? payload.ref : '';
  const after = typeof payload.after === 'string' ? payload.after : '';
  if (!repo || !ref) return { status: 'ignored', reason: 'push payload without repository.full_name or ref' };
  if (!ref.startsWith('refs/heads/')) return { status: 'ignored', reason: `${ref} is not a branch` };
  if (payload.deleted === true || /^0{40}$/.test(after)) return { status: 'ignored', reason: `${ref} was deleted` };
  if (!SHA.test(after)) return { status: 'ignored', reason: 'push payload without a commit sha in after' };
  const projects = await m.Project.find({ github_repo: { $regex: `^${escapeRegex(repo)}$`, $options: 'i' } }, { _id: 1, github_branch: 1 }).lean();
  if (projects.length === 0) return { status: 'ignored', reason: `no project is connected to ${repo}` };
  const branch = ref.slice('refs/heads/'.length);
  const matching = projects.filter((p) => (p.github_branch ?? 'main') === branch);
  if (matching.length === 0) return { status: 'ignored', reason: `${branch} is not the synced branch of any project connected to ${repo}` };
  const deployments: string[] = [];
  for (const p of matching) {
    if (await alreadyHandled(m, p._id, after)) continue;
    const d = await enqueueDeployment(m, p._id, { commitSha: after, trigger: 'webhook' }, now);
    deployments.push(d._id);
  }
  return deployments.length > 0 ? { status: 'queued', deployments } : { status: 'duplicate' };
}

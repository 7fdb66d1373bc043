/**
 * What a verified GitHub `push` delivery does: every project connected to that repository
 * whose synced branch was pushed gets a sync queued at the pushed commit; on pro and up, a push
 * to another branch queues its preview, and deleting a branch removes its preview.
 */
import type { Models } from '../db/models/index.ts';
import { enqueueDeployment } from '../deploy/queue.ts';
import { onCodePush } from '../workflows/workflow-runner.ts';
import type { Deps } from '../http/route.ts';
import { deletePreview, previewsAllowed, queuePreview } from '../previews/previews.ts';

/** The fields of a push payload this module reads. */
export interface PushPayload {
  ref?: unknown;
  before?: unknown;
  after?: unknown;
  deleted?: unknown;
  repository?: { id?: unknown; full_name?: unknown } | null;
  installation?: { id?: unknown } | null;
}

export type PushOutcome =
  | { status: 'queued'; deployments: string[] }
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string };

const SHA = /^[0-9a-f]{40}$/;

/**
 * Whether a site of the project (production, or the preview with `previewLabel`) already has
 * `sha` in hand: a queued or building deployment of it, or, with nothing queued or building, a
 * last successful deployment of it. A push body re-sent under a new delivery id then queues
 * nothing; a genuine push back to an older commit (after a newer one was deployed) still deploys it.
 */
async function alreadyHandled(m: Models, projectId: string, sha: string, previewLabel: string | null = null): Promise<boolean> {
  const site = { project_id: projectId, preview_label: previewLabel };
  const active = await m.Deployment.find({ ...site, status: { $in: ['queued', 'building'] } }, { commit_sha: 1 }).lean();
  if (active.some((d) => d.commit_sha === sha)) return true;
  if (active.length > 0) return false;
  const live = await m.Deployment.findOne({ ...site, status: 'deployed' }, { commit_sha: 1 }).sort({ finished_at: -1, _id: -1 }).lean();
  return live?.commit_sha === sha;
}

/**
 * Queues syncs for a push delivered to the GitHub App: projects connected through the
 * installation `installation.id` (linked to the project's organization) to the repository
 * `repository.id` — GitHub's numeric ids, never the name, which anyone can give their own
 * repository — whose `github_branch` (default `main`) is the pushed `refs/heads/<branch>`,
 * unless the project already has that commit queued, building or live ({@link alreadyHandled}).
 * On a plan with preview deployments, a push to another branch queues that branch's preview the
 * same way, and a branch deletion removes its previews. When every project already had the
 * commit, the push is a `duplicate`, as a replayed delivery id is. Tag pushes, unknown
 * repositories and branches nothing builds are ignored with a reason the delivery log on GitHub shows.
 */
export async function handlePush(deps: Deps, payload: PushPayload): Promise<PushOutcome> {
  const { m } = deps;
  const installationId = payload.installation?.id;
  const repoId = payload.repository?.id;
  const repo = typeof payload.repository?.full_name === 'string' ? payload.repository.full_name : `repository ${String(repoId)}`;
  const ref = typeof payload.ref === 'string' ? payload.ref : '';
  const after = typeof payload.after === 'string' ? payload.after : '';
  if (!Number.isSafeInteger(installationId) || !Number.isSafeInteger(repoId) || !ref) {
    return { status: 'ignored', reason: 'push payload without installation.id, repository.id or ref; expected a push delivered to the GitHub App' };
  }
  if (!ref.startsWith('refs/heads/')) return { status: 'ignored', reason: `${ref} is not a branch` };
  const branch = ref.slice('refs/heads/'.length);
  const installation = await m.GithubInstallation.findById(installationId, { org_id: 1 }).lean();
  const projects = installation
    ? await m.Project.find({ org_id: installation.org_id, github_installation_id: installationId as number, github_repo_id: repoId as number }, { _id: 1, org_id: 1, slug: 1, github_branch: 1 }).lean()
    : [];
  if (payload.deleted === true || /^0{40}$/.test(after)) {
    let removed = 0;
    for (const p of projects) if (await deletePreview(deps, p._id, branch)) removed++;
    return { status: 'ignored', reason: removed ? `${ref} was deleted; its preview was removed from ${removed} project(s)` : `${ref} was deleted` };
  }
  if (!SHA.test(after)) return { status: 'ignored', reason: 'push payload without a commit sha in after' };
  if (projects.length === 0) return { status: 'ignored', reason: `no project is connected to ${repo} (repository id ${repoId}) through installation ${installationId}` };
  const matching = projects.filter((p) => (p.github_branch ?? 'main') === branch);
  const previewing = [];
  for (const p of projects) if (!matching.includes(p) && await previewsAllowed(deps, p)) previewing.push(p);
  if (matching.length === 0 && previewing.length === 0) {
    return { status: 'ignored', reason: `${branch} is not the synced branch of any project connected to ${repo}, and preview deployments of other branches need the Pro plan` };
  }
  const deployments: string[] = [];
  for (const p of matching) {
    if (await alreadyHandled(m, p._id, after)) continue;
    const d = await enqueueDeployment(m, p._id, { commitSha: after, trigger: 'webhook' }, deps.now());
    deployments.push(d._id);
    // Self-updating workflows whose code repository this is (workflows/workflow-runner.ts); never waited for.
    const before = typeof payload.before === 'string' && SHA.test(payload.before) ? new Map([[branch, payload.before]]) : new Map<string, string>();
    void onCodePush(deps, p, before, new Map([[branch, after]])).catch((err) => console.error('workflow push trigger failed', err));
  }
  for (const p of previewing) {
    const label = (await m.Preview.findOne({ project_id: p._id, branch, status: 'active' }, { label: 1 }).lean())?.label;
    if (label && await alreadyHandled(m, p._id, after, label)) continue;
    const queued = await queuePreview(deps, p, branch, after, 'webhook');
    if (queued) deployments.push(queued.deploymentId);
  }
  return deployments.length > 0 ? { status: 'queued', deployments } : { status: 'duplicate' };
}

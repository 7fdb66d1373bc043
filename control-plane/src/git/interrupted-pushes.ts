/**
 * Pushes whose deployments were never queued. A push to a managed repository writes a push
 * intent (the branches before it) first and removes it once the deployments are queued
 * (push-intents.ts, git-http.ts). A replica killed in between (SIGKILL, out of memory, a node
 * lost), or a failure while queueing, leaves the intent behind: the branch moved, no deployment
 * follows, and pushing again says "Everything up-to-date". Every control plane sweeps intents
 * older than {@link STALE_AFTER_MS}: each is taken by one process (removed atomically) and the
 * push's work is done from its `before` and the branches as they are now, skipping commits
 * already deployed or queued, so nothing is lost and nothing is built twice.
 */
import type { Deps } from '../http/route.ts';
import { branchHeads } from './managed-repos.ts';
import { deployPushedBranches } from './git-http.ts';

/** An intent this old belongs to a push whose process is gone (a live push takes seconds). */
export const STALE_AFTER_MS = 60_000;
/** How often each control plane looks for them. */
export const SWEEP_EVERY_MS = 30_000;

/** Finishes every push left behind by a process that died; answers how many it finished. */
export async function finishInterruptedPushes(deps: Deps): Promise<number> {
  let finished = 0;
  const cutoff = new Date(deps.now().getTime() - STALE_AFTER_MS);
  for (;;) {
    const intent = await deps.m.PushIntent.findOneAndDelete({ started_at: { $lt: cutoff } }, { sort: { started_at: 1 } }).lean();
    if (!intent) return finished;
    const project = await deps.m.Project.findById(intent.project_id).lean();
    if (!project || project.github_repo) continue;
    const after = await branchHeads(deps, project._id);
    // Intents of first pushes written before empty `before`s were kept have none: no branch before.
    const before = new Map(Object.entries(intent.before ?? {}));
    // A branch whose commit already has a deployment was handled before the process died.
    for (const [branch, commit] of after) {
      if (before.get(branch) !== commit && await deps.m.Deployment.exists({ project_id: project._id, commit_sha: commit, branch })) before.set(branch, commit);
    }
    await deployPushedBranches(deps, project, before, after, { actorUserId: null, actorLabel: 'an interrupted push', via: 'git push' });
    finished++;
  }
}

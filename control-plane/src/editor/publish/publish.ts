/**
 * Publishing the web editor's drafts: one commit of all (or the listed) drafts on the production
 * branch or another branch, merged with whatever was pushed since the drafts began, moved into
 * place atomically, then deployed exactly as a push deploys (git/git-http.ts
 * `deployPushedBranches`). And merging a branch into the production branch.
 */
import { AppError } from '../../errors.ts';
import { deployPushedBranches } from '../../git/git-http.ts';
import type { Deps } from '../../http/route.ts';
import { previewUrlOf } from '../../previews/previews.ts';
import { siteUrlOf } from '../../sites/site-url.ts';
import { localRepoDir, productionBranch, pushBranch, withRepoLock, type RepoProject } from '../repo-access.ts';
import { branchCommit, buildTree, commitTree, isAncestor, listBranches, mergeBase, mergeTrees, readBlob, readTree, type GitPerson } from './git-plumbing.ts';
import { planChanges, type DraftInput, type FileConflict } from './plan-changes.ts';

/** How often a publish reads the branch again after a push moved it between the read and the update. */
const ATTEMPTS = 5;

/** The platform as committer of the editor's commits: EDITOR_COMMITTER_NAME / _EMAIL. */
export function platformCommitter(deps: Deps): GitPerson {
  return { name: deps.env.EDITOR_COMMITTER_NAME, email: deps.env.EDITOR_COMMITTER_EMAIL };
}

/** 409 `merge_conflict` with each file's versions. */
export function mergeConflict(conflicts: FileConflict[]): AppError {
  const paths = conflicts.map((c) => c.path);
  return new AppError(409, 'merge_conflict',
    `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''} changed on the branch since the draft began, in the same lines as the draft; resolve each conflict (both versions are kept with conflict markers) and publish again`,
    { extra: { conflicts } });
}

/** 409 `upstream_deleted` naming the drafts whose file the branch deleted or moved. */
export function upstreamDeleted(paths: string[]): AppError {
  return new AppError(409, 'upstream_deleted',
    `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''} was deleted or moved on the branch since the draft began; save the draft under a new path or discard it`,
    { extra: { paths } });
}

/** The actor of a publish or merge, for the commit and the audit log. */
export interface Publisher { userId: string; author: GitPerson; ip?: string | null }

export interface PublishResult { commit: string; branch: string; deployment_id: string | null; merged: string[]; site_url: string; published: DraftInput[] }

/** Where the branch is served: the site for the production branch, its preview for another. */
async function urlOf(deps: Deps, project: RepoProject, branch: string, queuedPreview?: string): Promise<string> {
  if (branch === productionBranch(project)) return siteUrlOf(deps, project);
  if (queuedPreview) return queuedPreview;
  const preview = await deps.m.Preview.findOne({ project_id: project._id, branch }, { label: 1 }).lean();
  return preview ? previewUrlOf(deps, project.slug, preview.label) : siteUrlOf(deps, project);
}

/**
 * Commits `drafts` to `branch` (default: the production branch; another branch is created from
 * the production head when missing) as one commit: author the member, committer the platform.
 * Throws `merge_conflict` or `upstream_deleted` without committing anything.
 */
export async function publishDrafts(deps: Deps, project: RepoProject, opts: { drafts: DraftInput[]; message: string; branch?: string; by: Publisher }): Promise<PublishResult> {
  if (opts.drafts.length === 0) throw new AppError(409, 'nothing_to_publish', 'There are no drafts to publish; edit a file first');
  const production = productionBranch(project);
  const branch = opts.branch ?? production;
  return withRepoLock(project._id, async () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const gitdir = await localRepoDir(deps, project, { fresh: true });
      const before = await listBranches(gitdir);
      const head = before.get(branch);
      const parent = head ?? (branch === production ? undefined : before.get(production));
      const plan = await planChanges(gitdir, parent, opts.drafts, branch);
      if (plan.upstreamDeleted.length) throw upstreamDeleted(plan.upstreamDeleted);
      if (plan.conflicts.length) throw mergeConflict(plan.conflicts);
      const tree = await buildTree(gitdir, parent, plan.changes);
      const commit = await commitTree(gitdir, { tree, parents: parent ? [parent] : [], author: opts.by.author, committer: platformCommitter(deps), message: opts.message, now: deps.now() });
      // Only if the branch is still where it was read: a push in between makes this attempt start over.
      if (!await pushBranch(deps, project, branch, commit, head)) continue;
      const after = new Map(before).set(branch, commit);
      const queued = await deployPushedBranches(deps, project, before, after, { actorUserId: opts.by.userId, via: 'web editor', ip: opts.by.ip });
      const preview = queued.previews.get(branch);
      return {
        commit, branch, merged: plan.merged, published: opts.drafts,
        deployment_id: (branch === production ? queued.production : preview?.deploymentId) ?? null,
        site_url: await urlOf(deps, project, branch, preview?.url),
      };
    }
    throw new AppError(409, 'branch_busy', `${branch} kept moving while the drafts were being published (${ATTEMPTS} attempts); publish again`);
  });
}

export interface MergeResult { commit: string; branch: string; into: string; fast_forward: boolean; deployment_id: string | null; site_url: string }

/**
 * Merges `branch` into the production branch: a fast-forward when production has not moved
 * since the branch left it, else a merge commit (`git merge-tree --write-tree`, two parents,
 * author the member, committer the platform). Conflicts: 409 `merge_conflict`, nothing committed.
 */
export async function mergeBranch(deps: Deps, project: RepoProject, branch: string, by: Publisher): Promise<MergeResult> {
  const production = productionBranch(project);
  if (branch === production) throw new AppError(400, 'invalid_request', `branch: ${branch} is the production branch; name the branch to merge into it`);
  return withRepoLock(project._id, async () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const gitdir = await localRepoDir(deps, project, { fresh: true });
      const before = await listBranches(gitdir);
      const source = before.get(branch);
      if (!source) throw new AppError(404, 'not_found', `branch ${branch} not found`);
      const head = before.get(production);
      let commit: string;
      let fastForward = false;
      if (head && await isAncestor(gitdir, source, head)) {
        // Already merged: nothing to commit, nothing to deploy.
        return { commit: head, branch, into: production, fast_forward: true, deployment_id: null, site_url: siteUrlOf(deps, project) };
      }
      if (!head || await isAncestor(gitdir, head, source)) {
        commit = source;
        fastForward = true;
      } else {
        const merged = await mergeTrees(gitdir, head, source);
        if (merged.conflicted.length) throw mergeConflict(await branchConflicts(gitdir, head, source, merged.tree, merged.conflicted));
        commit = await commitTree(gitdir, {
          tree: merged.tree, parents: [head, source], author: by.author, committer: platformCommitter(deps), now: deps.now(),
          message: `Merge branch '${branch}' into ${production}`,
        });
      }
      if (!await pushBranch(deps, project, production, commit, head)) continue;
      const queued = await deployPushedBranches(deps, project, before, new Map(before).set(production, commit), { actorUserId: by.userId, via: 'web editor merge', ip: by.ip });
      return { commit, branch, into: production, fast_forward: fastForward, deployment_id: queued.production ?? null, site_url: siteUrlOf(deps, project) };
    }
    throw new AppError(409, 'branch_busy', `${production} kept moving while ${branch} was being merged (${ATTEMPTS} attempts); merge again`);
  });
}

/** Base, ours (production), theirs (the branch) and Git's marked-up merge of each conflicted file. */
async function branchConflicts(gitdir: string, head: string, source: string, tree: string, paths: string[]): Promise<FileConflict[]> {
  const base = await mergeBase(gitdir, head, source);
  const [baseTree, oursTree, theirsTree] = await Promise.all([readTree(gitdir, base), readTree(gitdir, head), readTree(gitdir, source)]);
  // A tree lists like a commit's.
  const mergedTree = await readTree(gitdir, tree);
  const textOf = async (entry: { blob: string } | undefined) => (entry ? (await readBlob(gitdir, entry.blob)).toString('utf8') : null);
  const out: FileConflict[] = [];
  for (const p of paths) {
    const versions = await Promise.all([baseTree.get(p), oursTree.get(p), theirsTree.get(p), mergedTree.get(p)].map(textOf));
    const binary = versions.some((v) => v !== null && v.includes('\0'));
    out.push({ path: p, binary, base: binary ? null : versions[0], ours: binary ? null : versions[1], theirs: binary ? null : versions[2], merged_with_markers: binary ? null : versions[3] });
  }
  return out;
}

/** Every branch of the project with its head and, when it has one, its preview's URL. */
export async function branchList(deps: Deps, project: RepoProject): Promise<{ name: string; head: string; preview_url?: string }[]> {
  const gitdir = await localRepoDir(deps, project);
  const heads = await listBranches(gitdir);
  const previews = await deps.m.Preview.find({ project_id: project._id, status: 'active' }, { branch: 1, label: 1 }).lean();
  const byBranch = new Map(previews.map((p) => [p.branch, previewUrlOf(deps, project.slug, p.label)]));
  return [...heads].sort(([a], [b]) => a.localeCompare(b)).map(([name, head]) => ({ name, head, ...(byBranch.has(name) ? { preview_url: byBranch.get(name)! } : {}) }));
}

/** The production head and the blob of `path` there, which a resolved draft takes as its new base. */
export async function currentBase(deps: Deps, project: RepoProject, path: string): Promise<{ commit: string | null; blob: string | null }> {
  const gitdir = await localRepoDir(deps, project, { fresh: true });
  const commit = await branchCommit(gitdir, productionBranch(project));
  if (!commit) return { commit: null, blob: null };
  return { commit, blob: (await readTree(gitdir, commit)).get(path)?.blob ?? null };
}

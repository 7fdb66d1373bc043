/**
 * Commits a run's writes to its branch (`agent/<run id>`) through the web editor's publishing
 * (editor/publish/publish.ts): one commit per build or at the end, author the member who started
 * the run, committer the platform; on pro the branch is a preview deployment. Each commit carries
 * only what changed since the run's previous commit, based on it.
 */
import type { Deps } from '../http/route.ts';
import { publishDrafts, type Publisher } from '../editor/publish/publish.ts';
import type { DraftInput } from '../editor/publish/plan-changes.ts';
import { repoFileBlob } from '../editor/repo-files.ts';
import type { RepoProject } from '../editor/repo-access.ts';

export interface BranchState {
  branch: string;
  baseCommit: string | null;
  /** The branch's last commit made by this run. */
  lastCommit: string | null;
  /** What each path was at the last commit (null: deleted). */
  committed: Map<string, string | null>;
}

export interface BranchCommit { commit: string; deployment_id: string | null; preview_url: string; files: number }

/** Commits the writes not yet on the branch; undefined when there are none. */
export async function commitWrites(deps: Deps, project: RepoProject, state: BranchState, writes: Map<string, { content: string | null }>, by: Publisher, message: string): Promise<BranchCommit | undefined> {
  const base = state.lastCommit ?? state.baseCommit;
  const drafts: DraftInput[] = [];
  for (const [path, w] of writes) {
    if (state.committed.has(path) && state.committed.get(path) === w.content) continue;
    const blob = base ? await repoFileBlob(deps, project._id, base, path) : undefined;
    if (w.content === null && !blob) continue;
    drafts.push({ path, kind: 'text', content: w.content, base_commit: base, base_blob: blob ?? null, renamed_from: null });
  }
  if (!drafts.length) return undefined;
  const out = await publishDrafts(deps, project, { drafts, message, branch: state.branch, by });
  state.lastCommit = out.commit;
  for (const d of drafts) state.committed.set(d.path, d.content);
  return { commit: out.commit, deployment_id: out.deployment_id, preview_url: out.site_url, files: drafts.length };
}

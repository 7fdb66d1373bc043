/**
 * The commit message and author of deployments of managed projects, read from the managed
 * repository with one `git log --no-walk` for every deployment still missing them, and stored on
 * the deployment so each commit is read once. Whatever queued the deployment (a push, the API,
 * the dashboard, a retry) the commit is in the repository by the time it has a `commit_sha`.
 * Own GitHub repositories are not cloned here: the builder reports their commits' message and
 * author with the deployment's outcome (deploy/queue.ts keeps them the same way); until then
 * their deployments show the commit id alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Deployment } from '../db/models/index.ts';
import { runGit } from '../git/git-cli.ts';
import { repoPath } from '../git/managed-repos.ts';
import type { Deps } from '../http/route.ts';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Longest subject kept. */
const MAX_SUBJECT = 300;

/** The message and author of the commit `d` builds, when known (null when not, or read for another commit). */
export function commitInfo(d: Pick<Deployment, 'commit_sha' | 'commit_info'>): { message: string; author: string } | null {
  const info = d.commit_info as { sha?: string; message?: string; author?: string } | null | undefined;
  if (!info || !d.commit_sha || info.sha !== d.commit_sha || typeof info.message !== 'string' || typeof info.author !== 'string') return null;
  return { message: info.message, author: info.author };
}

/**
 * Fills `commit_info` of `rows` (deployments of project `project`) where missing or of another
 * commit (a queued deployment's commit moves to the newest pushed), in place and in the database. A repository that lacks a commit (rewritten since)
 * leaves its deployment as it was; a failing `git` changes nothing.
 */
export async function addCommitInfo(deps: Deps, project: { _id: string; github_repo?: string | null }, rows: Deployment[]): Promise<void> {
  if (project.github_repo) return;
  const missing = rows.filter((d) => d.commit_sha && SHA.test(d.commit_sha) && commitInfo(d) === null);
  if (missing.length === 0) return;
  const gitdir = repoPath(deps, project._id);
  if (!fs.existsSync(path.join(gitdir, 'HEAD'))) return;
  const shas = [...new Set(missing.map((d) => d.commit_sha!))];
  // %x00 separates the fields and %x01 the commits: neither can appear in a subject or a name.
  const out = await runGit(['log', '--no-walk=unsorted', '--ignore-missing', '--format=%H%x00%s%x00%an <%ae>%x01', ...shas], { cwd: gitdir, allowFail: true })
    .catch(() => undefined);
  if (!out || out.code !== 0) return;
  const found = new Map<string, { message: string; author: string }>();
  for (const record of out.stdout.toString('utf8').split('\x01')) {
    const [sha, subject, author] = record.replace(/^\s+/, '').split('\x00');
    if (sha && SHA.test(sha) && author !== undefined) found.set(sha, { message: subject.slice(0, MAX_SUBJECT), author: author.slice(0, MAX_SUBJECT) });
  }
  await Promise.all(missing.map(async (d) => {
    const info = found.get(d.commit_sha!);
    if (!info) return;
    d.commit_info = { sha: d.commit_sha, ...info };
    await deps.m.Deployment.updateOne({ _id: d._id, commit_sha: d.commit_sha }, { $set: { commit_info: d.commit_info } });
  }));
}

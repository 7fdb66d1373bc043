/**
 * Reads a project's repository at a commit of its production branch, for the web editor: the
 * file list merged with drafts (the tree), a file's text at the draft's base, the head a new
 * draft starts from. Through repo-access.ts: a managed repository is read in place (the bare
 * repository under DATA_DIR), a repository on the customer's GitHub through its local mirror
 * (fetched when older than ten seconds), both with the `git` CLI.
 */
import type { Deps } from '../http/route.ts';
import { notFound } from '../errors.ts';
import { runGit } from '../git/git-cli.ts';
import { branchHead } from '../git/managed-repos.ts';
import { isGithubProject, localRepoDir, type RepoProject } from './repo-access.ts';

/** One file of the repository at a commit. */
export interface RepoFile { path: string; size: number; blob: string }

async function projectOf(deps: Deps, projectId: string): Promise<RepoProject> {
  const project = await deps.m.Project.findById(projectId).lean<RepoProject>();
  if (!project) throw notFound('project');
  return project;
}

async function repoDir(deps: Deps, projectId: string): Promise<string> {
  return localRepoDir(deps, await projectOf(deps, projectId));
}

/** The production branch of a project (`github_branch`, default `main`). */
export async function productionBranch(deps: Deps, projectId: string): Promise<string> {
  return (await projectOf(deps, projectId)).github_branch ?? 'main';
}

/** The commit the production branch points at, or null when nothing was pushed yet. */
export async function headCommit(deps: Deps, projectId: string): Promise<string | null> {
  const project = await projectOf(deps, projectId);
  const dir = await localRepoDir(deps, project);
  const branch = project.github_branch ?? 'main';
  if (!isGithubProject(project)) return (await branchHead(deps, projectId, branch)) ?? null;
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], { cwd: dir, allowFail: true });
  return code === 0 ? stdout.toString().trim() : null;
}

// A commit's tree never changes: keep the last few listings (the tree and the link index ask often).
const listings = new Map<string, RepoFile[]>();
const LISTINGS_KEPT = 32;

/** Every file (blobs; no submodules, no symlink targets) of the repository at `commit`. */
export async function listRepoFiles(deps: Deps, projectId: string, commit: string): Promise<RepoFile[]> {
  const dir = await repoDir(deps, projectId);
  const key = `${dir}\0${commit}`;
  const hit = listings.get(key);
  if (hit) return hit;
  const { stdout, code } = await runGit(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], { cwd: dir, allowFail: true });
  if (code !== 0) return [];
  const files: RepoFile[] = [];
  for (const entry of stdout.toString('utf8').split('\0')) {
    // "<mode> <type> <blob> <size>\t<path>"
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, blob, size] = entry.slice(0, tab).trim().split(/\s+/);
    if (type !== 'blob' || mode === '120000') continue;
    files.push({ path: entry.slice(tab + 1), size: Number(size), blob: blob! });
  }
  listings.set(key, files);
  if (listings.size > LISTINGS_KEPT) listings.delete(listings.keys().next().value!);
  return files;
}

/** The blob id of `path` at `commit`, or undefined when the file is not there. */
export async function repoFileBlob(deps: Deps, projectId: string, commit: string, path: string): Promise<string | undefined> {
  return (await listRepoFiles(deps, projectId, commit)).find((f) => f.path === path)?.blob;
}

/** The bytes of `path` at `commit`, or undefined when the file is not there. */
export async function readRepoFile(deps: Deps, projectId: string, commit: string, path: string): Promise<Buffer | undefined> {
  const blob = await repoFileBlob(deps, projectId, commit, path);
  if (!blob) return undefined;
  const dir = await repoDir(deps, projectId);
  const { stdout, code } = await runGit(['cat-file', 'blob', blob], { cwd: dir, allowFail: true });
  return code === 0 ? stdout : undefined;
}

/** The bytes of many blobs at once (one `git cat-file --batch`), by blob id; missing ones are left out. */
export async function readRepoBlobs(deps: Deps, projectId: string, blobs: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const wanted = [...new Set(blobs)].filter((b) => /^[0-9a-f]{40,64}$/.test(b));
  if (wanted.length === 0) return out;
  const dir = await repoDir(deps, projectId);
  const { stdout } = await runGit(['cat-file', '--batch'], { cwd: dir, input: Buffer.from(`${wanted.join('\n')}\n`), allowFail: true });
  let at = 0;
  while (at < stdout.length) {
    const eol = stdout.indexOf(0x0a, at);
    if (eol < 0) break;
    // "<id> <type> <size>" or "<id> missing"
    const [id, type, size] = stdout.subarray(at, eol).toString().split(' ');
    at = eol + 1;
    if (type === 'missing' || size === undefined) continue;
    const n = Number(size);
    if (type === 'blob') out.set(id!, stdout.subarray(at, at + n));
    at += n + 1;
  }
  return out;
}

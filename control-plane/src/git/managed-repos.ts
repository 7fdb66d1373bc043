/**
 * Repositories the platform hosts for projects created without `github_repo`: bare Git
 * repositories under `<DATA_DIR>/repos/<project id>.git`, served over smart HTTP (git-http.ts).
 * A push to the synced branch queues a deployment.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../http/route.ts';
import { enqueueDeployment } from '../deploy/queue.ts';
import { notFound } from '../errors.ts';
import { runGit } from './git-cli.ts';
import { readBranchHeads } from './read-refs.ts';

export function reposDir(deps: Deps): string {
  return path.join(deps.env.dataDir, 'repos');
}

export function repoPath(deps: Deps, projectId: string): string {
  return path.join(reposDir(deps), `${projectId}.git`);
}

/** Creates the bare repository of a managed project (idempotent). */
export async function createManagedRepo(deps: Deps, projectId: string, branch = 'main'): Promise<void> {
  const dir = repoPath(deps, projectId);
  if (fs.existsSync(path.join(dir, 'HEAD'))) return;
  fs.mkdirSync(dir, { recursive: true });
  await runGit(['init', '--quiet', '--bare', `--initial-branch=${branch}`, dir]);
  // Pushes over HTTP need this; the platform authenticates them itself.
  await runGit(['config', 'http.receivepack', 'true'], { cwd: dir });
}

export async function deleteManagedRepo(deps: Deps, projectId: string): Promise<void> {
  fs.rmSync(repoPath(deps, projectId), { recursive: true, force: true });
}

/** The commit a branch points at, or undefined when the branch does not exist yet. */
export async function branchHead(deps: Deps, projectId: string, branch: string): Promise<string | undefined> {
  // Asked at every claim of the project's jobs: read from the files (read-refs.ts) when it can.
  const heads = readBranchHeads(repoPath(deps, projectId));
  if (heads) return heads.get(branch);
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], { cwd: repoPath(deps, projectId), allowFail: true });
  return code === 0 ? stdout.toString().trim() : undefined;
}

/** Every branch of a managed repository with the commit it points at. */
export async function branchHeads(deps: Deps, projectId: string): Promise<Map<string, string>> {
  const heads = readBranchHeads(repoPath(deps, projectId));
  if (heads) return heads;
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads/'], { cwd: repoPath(deps, projectId), allowFail: true });
  return new Map(stdout.toString().split('\n').filter(Boolean).map((line) => line.split(' ') as [string, string]));
}

/**
 * Commits one file into the project's synced branch (asset uploads) without a work tree, then
 * queues a deployment like a push would. Returns the new commit id.
 */
export async function commitFile(deps: Deps, projectId: string, filePath: string, bytes: Buffer, message: string): Promise<string> {
  const project = await deps.m.Project.findById(projectId).lean();
  if (!project) throw notFound('project');
  const branch = project.github_branch ?? 'main';
  const cwd = repoPath(deps, projectId);
  if (!fs.existsSync(cwd)) await createManagedRepo(deps, projectId, branch);
  const parent = await branchHead(deps, projectId, branch);
  const indexFile = path.join(cwd, `index-upload-${process.pid}-${Date.now()}`);
  const env = { GIT_INDEX_FILE: indexFile, GIT_AUTHOR_NAME: 'Folio', GIT_AUTHOR_EMAIL: 'uploads@folio.dev', GIT_COMMITTER_NAME: 'Folio', GIT_COMMITTER_EMAIL: 'uploads@folio.dev' };
  try {
    const blob = (await runGit(['hash-object', '-w', '--stdin'], { cwd, input: bytes })).stdout.toString().trim();
    if (parent) await runGit(['read-tree', parent], { cwd, env });
    await runGit(['update-index', '--add', '--cacheinfo', `100644,${blob},${filePath}`], { cwd, env });
    const tree = (await runGit(['write-tree'], { cwd, env })).stdout.toString().trim();
    const commit = (await runGit(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], { cwd, env })).stdout.toString().trim();
    await runGit(['update-ref', `refs/heads/${branch}`, commit, ...(parent ? [parent] : [])], { cwd });
    await enqueueDeployment(deps.m, projectId, { commitSha: commit, trigger: 'push' }, deps.now());
    deps.services.wakeWorkers?.();
    return commit;
  } finally {
    fs.rmSync(indexFile, { force: true });
  }
}

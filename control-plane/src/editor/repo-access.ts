/**
 * The web editor's way to a project's repository: a bare Git repository on this machine that it
 * reads and commits into, and a way to publish a branch from it.
 *
 * - A managed repository (no `github_repo`) is the platform's own bare repository
 *   (git/managed-repos.ts); a branch moves there by a compare-and-swap of its ref.
 * - A repository on the customer's GitHub is kept as a bare mirror under
 *   `<DATA_DIR>/editor-mirrors/<project id>.git`, fetched from GITHUB_BASE_URL and pushed back
 *   with an installation token of the project's own installation, restricted to that one
 *   repository (contents: write). The token reaches `git` only through its environment
 *   (`GIT_CONFIG_*` setting `http.extraHeader` for that one process): it is never in a remote URL,
 *   the mirror's configuration, the process's arguments or a log line.
 *
 * Each project's repository is used by one publish or merge at a time in this process
 * (`withRepoLock`); between processes the ref's compare-and-swap (managed) or the push's lease
 * (GitHub) makes the loser retry, so no commit is ever overwritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { runGit } from '../git/git-cli.ts';
import { createManagedRepo, repoPath } from '../git/managed-repos.ts';
import { GITHUB_OFF_MESSAGE, appJwt, githubAppOf, githubCall, githubUnavailable, type GithubApp } from '../github/github-app.ts';
import type { Deps } from '../http/route.ts';
import { compareAndSwapBranch } from './publish/git-plumbing.ts';

/** The project fields repository access reads. */
export type RepoProject = Pick<Project, '_id' | 'org_id' | 'slug'> & Partial<Pick<Project, 'github_repo' | 'github_repo_id' | 'github_installation_id' | 'github_branch' | 'custom_domain'>>;

/** The branch a project deploys to production. */
export const productionBranch = (project: RepoProject) => project.github_branch ?? 'main';

/** Whether the project's repository is the customer's own on GitHub. */
export const isGithubProject = (project: RepoProject) => Boolean(project.github_repo);

/** Where the bare mirror of a GitHub project's repository lives. */
export function mirrorPath(deps: Deps, projectId: string): string {
  return path.join(deps.env.dataDir, 'editor-mirrors', `${projectId}.git`);
}

/** A mirror fetched less than this long ago is used as it is, unless a fresh one is asked for. */
const FETCH_FRESH_MS = 10_000;
const lastFetch = new Map<string, number>();

const locks = new Map<string, Promise<unknown>>();

/** Runs `fn` once every earlier holder of the project's repository lock (in this process) is done. */
export async function withRepoLock<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
  const before = locks.get(projectId) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(fn);
  const tail = run.catch(() => undefined);
  locks.set(projectId, tail);
  try {
    return await run;
  } finally {
    if (locks.get(projectId) === tail) locks.delete(projectId);
  }
}

/**
 * A bare repository on this machine holding the project's branches: the managed repository
 * itself (created when missing), or the mirror of the GitHub repository, fetched when older than
 * ten seconds or when `fresh` is asked for (a publish or a merge).
 */
export async function localRepoDir(deps: Deps, project: RepoProject, opts: { fresh?: boolean } = {}): Promise<string> {
  if (!isGithubProject(project)) {
    const dir = repoPath(deps, project._id);
    if (!fs.existsSync(path.join(dir, 'HEAD'))) await createManagedRepo(deps, project._id, productionBranch(project));
    return dir;
  }
  const dir = mirrorPath(deps, project._id);
  if (!fs.existsSync(path.join(dir, 'HEAD'))) {
    fs.mkdirSync(dir, { recursive: true });
    await runGit(['init', '--quiet', '--bare', `--initial-branch=${productionBranch(project)}`, dir]);
  }
  const fetchedAt = lastFetch.get(dir) ?? 0;
  if (opts.fresh || Date.now() - fetchedAt > FETCH_FRESH_MS) {
    const { url, env } = await githubRemote(deps, project);
    // Every branch, pruned: the mirror is what the repository is, nothing kept of its own.
    const { code } = await runGit(['fetch', '--quiet', '--prune', '--no-tags', '--update-head-ok', url, '+refs/heads/*:refs/heads/*'], { cwd: dir, env, allowFail: true });
    if (code !== 0) throw githubUnavailable(`a fetch of ${project.github_repo}`);
    lastFetch.set(dir, Date.now());
  }
  return dir;
}

/**
 * Publishes `commit` as branch `branch` of the project's repository if the branch is still at
 * `expected` (undefined: only when the branch does not exist yet). True when it moved; false
 * when someone else moved it meanwhile, so the caller reads the branch again and retries.
 */
export async function pushBranch(deps: Deps, project: RepoProject, branch: string, commit: string, expected?: string): Promise<boolean> {
  const dir = await localRepoDir(deps, project);
  if (!isGithubProject(project)) return compareAndSwapBranch(dir, branch, commit, expected);
  const { url, env } = await githubRemote(deps, project);
  // A lease on the value we built on: GitHub refuses the push when the branch moved since.
  const { stdout, code } = await runGit(['push', '--porcelain', `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`, url, `${commit}:refs/heads/${branch}`], { cwd: dir, env, allowFail: true });
  const report = stdout.toString();
  if (code === 0) {
    // The mirror follows at once (a later fetch would bring the same).
    await runGit(['update-ref', `refs/heads/${branch}`, commit], { cwd: dir });
    lastFetch.delete(dir);
    return true;
  }
  // `!` marks a refused ref (stale lease, not a fast-forward): someone pushed first.
  if (/^!\t/m.test(report) && /stale info|fetch first|non-fast-forward|rejected/.test(report)) return false;
  if (/^!\t/m.test(report)) {
    throw new AppError(409, 'push_refused', `${project.github_repo} refused the push to ${branch} (${report.split('\n').find((l) => l.startsWith('!'))?.split('\t').slice(2).join(' ').trim() || 'no reason given'}); check the branch protection rules on GitHub`);
  }
  throw githubUnavailable(`a push to ${project.github_repo}`);
}

/** The clone URL of a GitHub project and the environment that authenticates `git` for it. */
async function githubRemote(deps: Deps, project: RepoProject): Promise<{ url: string; env: Record<string, string> }> {
  const app = githubAppOf(deps.env);
  if (!app) throw new AppError(409, 'editor_repo_unsupported', `Cannot reach ${project.github_repo}: ${GITHUB_OFF_MESSAGE}`);
  const token = await writeToken(deps, app, project);
  return {
    url: `${app.webUrl}/${project.github_repo}.git`,
    env: {
      GIT_TERMINAL_PROMPT: '0',
      // Configuration for this one process: not stored, not in the arguments.
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
    },
  };
}

const tokens = new WeakMap<object, Map<string, { token: string; expiresAt: number }>>();
/** Tokens with less than this left are minted anew. */
const REFRESH_BEFORE_MS = 5 * 60_000;

/**
 * A token of the project's installation that reads and writes the contents of the project's
 * repository only, kept until five minutes before it expires.
 */
async function writeToken(deps: Deps, app: GithubApp, project: RepoProject): Promise<string> {
  const installationId = project.github_installation_id;
  const repoId = project.github_repo_id;
  if (!installationId || !repoId) {
    throw new AppError(409, 'editor_repo_unsupported', `Cannot publish to ${project.github_repo}: connect the repository again through the GitHub App (Settings → GitHub), then the editor can push to it`);
  }
  const linked = await deps.m.GithubInstallation.findOne({ _id: installationId, org_id: project.org_id }, { suspended_at: 1 }).lean();
  if (!linked || linked.suspended_at) {
    throw new AppError(409, 'editor_repo_unsupported', `Cannot reach ${project.github_repo}: the GitHub App installation ${installationId} is ${linked ? 'suspended on GitHub' : 'no longer connected to this organization'}`);
  }
  let cache = tokens.get(deps.m);
  if (!cache) tokens.set(deps.m, cache = new Map());
  const key = `${installationId}:${repoId}`;
  const kept = cache.get(key);
  if (kept && kept.expiresAt - Date.now() > REFRESH_BEFORE_MS) return kept.token;
  const res = await githubCall('POST', `${app.apiUrl}/app/installations/${installationId}/access_tokens`, {
    auth: `Bearer ${appJwt(app, new Date())}`, body: { repository_ids: [repoId], permissions: { contents: 'write' } }, what: 'a request for a token to publish',
  });
  const expiresAt = Date.parse(typeof res.body?.expires_at === 'string' ? res.body.expires_at : '');
  if (res.status !== 201 || typeof res.body?.token !== 'string' || Number.isNaN(expiresAt)) {
    cache.delete(key);
    throw new AppError(409, 'github_write_refused', `GitHub refused a token to write to ${project.github_repo} (${res.status}); the GitHub App needs the "Contents: read and write" permission on it, accepted by the account that installed it`);
  }
  cache.set(key, { token: res.body.token, expiresAt });
  return res.body.token;
}

/**
 * The credentials a build of a GitHub-connected project clones with: a fresh token of the
 * project's installation, restricted to the project's repository. Never a platform token: a
 * project without an installation of its own organization cannot build, whatever the platform
 * could read.
 */
import type { Deps } from '../http/route.ts';
import { GITHUB_OFF_MESSAGE, githubAppOf } from './github-app.ts';
import { repoToken } from './installation-tokens.ts';

/** Why a GitHub project's build cannot start: `user` failures are final and shown to the customer; `app` failures are retried. */
export class BuildSourceError extends Error {
  readonly kind: 'user' | 'app';
  constructor(kind: 'user' | 'app', message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'BuildSourceError';
    this.kind = kind;
  }
}

const CONNECT = 'connect the GitHub App in the dashboard (Settings → GitHub) on the account that owns the repository and grant it the repository';

/** The project fields this reads. */
export interface GithubProject { org_id: string; github_repo?: string | null; github_repo_id?: number | null; github_installation_id?: number | null }

/** Clone URL and token for a project with `github_repo`; throws {@link BuildSourceError}. */
export async function githubBuildSource(deps: Deps, project: GithubProject): Promise<{ url: string; token: string }> {
  const repo = project.github_repo!;
  const app = githubAppOf(deps.env);
  if (!app) throw new BuildSourceError('user', `Cannot read ${repo}: ${GITHUB_OFF_MESSAGE}`);
  const installationId = project.github_installation_id;
  const repoId = project.github_repo_id;
  if (!installationId || !repoId) {
    throw new BuildSourceError('user', `Cannot read ${repo}: this project was connected to GitHub before repositories were read through the GitHub App; ${CONNECT}, then connect the repository again (PATCH the project's github_repo)`);
  }
  const linked = await deps.m.GithubInstallation.findOne({ _id: installationId, org_id: project.org_id }, { suspended_at: 1 }).lean();
  if (!linked) throw new BuildSourceError('user', `Cannot read ${repo}: the GitHub App installation it was connected through (${installationId}) is no longer connected to this organization; ${CONNECT}`);
  if (linked.suspended_at) throw new BuildSourceError('user', `Cannot read ${repo}: the GitHub App installation ${installationId} is suspended on GitHub; unsuspend it in the account's GitHub settings`);
  let minted;
  try {
    minted = await repoToken(deps.m, app, installationId, repoId);
  } catch (err) {
    throw new BuildSourceError('app', `GitHub did not answer a request for a token to read ${repo}; the build is retried`, { cause: err });
  }
  if (!('token' in minted)) {
    throw new BuildSourceError('user', `Cannot read ${repo}: GitHub refused a token for it (${minted.refused}: ${minted.message}); the App may have been uninstalled or the repository removed from it: ${CONNECT}`);
  }
  return { url: `${app.webUrl}/${repo}.git`, token: minted.token };
}

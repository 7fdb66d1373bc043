/**
 * Connecting a project to a GitHub repository: allowed only when one of the organization's own
 * App installations (github/link-installation.ts) can read it. The answer is the repository as
 * GitHub knows it: its numeric id (stable across renames and transfers) and its full name in
 * GitHub's letter case, plus the installation that covers it.
 *
 * A repository that does not exist, one the App is not installed on, one installed for another
 * organization, and one left out of a "selected repositories" installation all give the very
 * same error, so the answer says nothing about repositories the organization cannot read.
 */
import type { Deps } from '../http/route.ts';
import { AppError } from '../errors.ts';
import { appJwt, githubCall, requireGithubApp } from './github-app.ts';
import { mintToken } from './installation-tokens.ts';

/** The repository a project connects to, as GitHub knows it. */
export interface ResolvedRepo { fullName: string; repoId: number; installationId: number }

/** 422 `github_repo_not_accessible`, worded the same whatever the reason. */
export const repoNotAccessible = (repo: string) => new AppError(422, 'github_repo_not_accessible',
  `github_repo: No GitHub App installation of this organization can read ${repo}; install the GitHub App on that account, grant it the repository, and connect the installation in the dashboard (Settings → GitHub)`);

/**
 * Resolves `repo` (`owner/name`, any letter case) through the installations of `orgId`:
 * `GET /repos/{owner}/{repo}/installation` (as the App) must name one of them, and a token of
 * that installation restricted to the repository must read `GET /repos/{owner}/{repo}`.
 */
export async function resolveRepo(deps: Deps, orgId: string, repo: string): Promise<ResolvedRepo> {
  const app = requireGithubApp(deps.env);
  const [owner, name] = repo.split('/');
  const path = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const found = await githubCall('GET', `${app.apiUrl}/repos/${path}/installation`, { auth: `Bearer ${appJwt(app, new Date())}`, what: 'which installation covers the repository' });
  const installationId = found.status === 200 ? found.body?.id : undefined;
  if (!Number.isSafeInteger(installationId)) throw repoNotAccessible(repo);
  const own = await deps.m.GithubInstallation.exists({ _id: installationId, org_id: orgId, suspended_at: null });
  if (!own) throw repoNotAccessible(repo);
  // Restricted to this one repository: refused when a "selected repositories" installation left it out.
  const minted = await mintToken(app, installationId, { repositories: [name] });
  if (!('token' in minted)) throw repoNotAccessible(repo);
  const read = await githubCall('GET', `${app.apiUrl}/repos/${path}`, { auth: `token ${minted.token}`, what: 'the repository' });
  const repoId = read.body?.id;
  const fullName = read.body?.full_name;
  if (read.status !== 200 || !Number.isSafeInteger(repoId) || typeof fullName !== 'string' || fullName.toLowerCase() !== repo.toLowerCase()) throw repoNotAccessible(repo);
  return { fullName, repoId, installationId };
}

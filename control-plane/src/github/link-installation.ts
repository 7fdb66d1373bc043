/**
 * Linking an installation of the App to an organization. GitHub's setup redirect carries
 * `installation_id`, which anyone can type, so it proves nothing by itself: the `code` of the
 * same redirect (the App requests user authorization during installation) is exchanged for the
 * installing user's token, and GitHub must list that installation among the ones this user can
 * see (`GET /user/installations`) and that user must read every repository it covers. Only then
 * is it stored for the organization named by the signed state (install-state.ts). An
 * installation belongs to one organization.
 */
import type { Deps } from '../http/route.ts';
import { AppError } from '../errors.ts';
import { githubCall, requireGithubApp, type GithubApp } from './github-app.ts';
import { mintToken } from './installation-tokens.ts';

/** An installation as the API shows it. */
export interface InstallationJson { id: number; account_login: string; account_id: number; suspended: boolean; created_at: string }

export function installationJson(i: { _id: number; account_login: string; account_id: number; suspended_at?: Date | null; created_at: Date }): InstallationJson {
  return { id: i._id, account_login: i.account_login, account_id: i.account_id, suspended: Boolean(i.suspended_at), created_at: new Date(i.created_at).toISOString() };
}

const notYours = () => new AppError(403, 'github_installation_not_accessible',
  'installation_id: GitHub does not list this installation among those your GitHub account can see; install the App from "Connect GitHub" and sign in to GitHub as a user of that account');

/** The installing user's token for `code` (`POST {web}/login/oauth/access_token`). */
async function userToken(app: GithubApp, code: string): Promise<string> {
  const res = await githubCall('POST', `${app.webUrl}/login/oauth/access_token`, {
    body: { client_id: app.clientId, client_secret: app.clientSecret, code }, what: 'the authorization code exchange',
  });
  const token = res.status === 200 ? res.body?.access_token : undefined;
  if (typeof token !== 'string' || !token) {
    throw new AppError(403, 'github_authorization_failed', 'code: GitHub did not accept the authorization code (it is used once and expires after 10 minutes); start again from "Connect GitHub"');
  }
  return token;
}

/** The installation `installationId` among those the user of `token` can see, or undefined (at most 1,000 looked at). */
async function userInstallation(app: GithubApp, token: string, installationId: number): Promise<{ login: string; id: number } | undefined> {
  for (let page = 1; page <= 10; page++) {
    const res = await githubCall('GET', `${app.apiUrl}/user/installations?per_page=100&page=${page}`, { auth: `Bearer ${token}`, what: 'the installations of your GitHub account' });
    const list: unknown[] = res.status === 200 && Array.isArray(res.body?.installations) ? res.body.installations : [];
    const hit = list.find((i: any) => i?.id === installationId) as { account?: { login?: unknown; id?: unknown } } | undefined;
    if (hit) {
      const { login, id } = hit.account ?? {};
      return typeof login === 'string' && Number.isSafeInteger(id) ? { login, id: id as number } : undefined;
    }
    if (list.length < 100) return undefined;
  }
  return undefined;
}

/** `total_count` of a repository list answer (one item asked for), or undefined. */
async function repositoryCount(url: string, auth: string, what: string): Promise<number | undefined> {
  const res = await githubCall('GET', url, { auth, what });
  const n = res.status === 200 ? res.body?.total_count : undefined;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * GitHub lists an installation for any user who can read one of its repositories. Linking gives
 * the organization every repository the installation covers, so the user must be able to read
 * all of them (`/user/installations/{id}/repositories` counts as many as the installation's own
 * list): an account's owners can; a member who reads one repository cannot hand over the rest.
 */
async function assertReadsEveryRepository(app: GithubApp, userToken: string, installationId: number, login: string): Promise<void> {
  const minted = await mintToken(app, installationId, 'metadata');
  const covered = 'token' in minted ? await repositoryCount(`${app.apiUrl}/installation/repositories?per_page=1`, `token ${minted.token}`, 'the repositories of the installation') : undefined;
  const readable = await repositoryCount(`${app.apiUrl}/user/installations/${installationId}/repositories?per_page=1`, `Bearer ${userToken}`, 'the repositories your GitHub account reads');
  if (covered === undefined || readable === undefined || readable < covered) {
    throw new AppError(403, 'github_installation_not_accessible',
      `installation_id: Your GitHub account cannot read every repository the installation on ${login} covers; an owner of ${login} must connect it (or limit the installation to repositories you can read)`);
  }
}

/**
 * Links `installationId` to `orgId` once GitHub confirmed, through `code`, that the user can see
 * it. Linking one already linked to this organization answers it again (`created: false`); one
 * linked to another organization is 409 `installation_already_linked`.
 */
export async function linkInstallation(deps: Deps, opts: { orgId: string; userId: string; installationId: number; code: string }): Promise<{ installation: InstallationJson; created: boolean }> {
  const app = requireGithubApp(deps.env);
  const token = await userToken(app, opts.code);
  const account = await userInstallation(app, token, opts.installationId);
  if (!account) throw notYours();
  await assertReadsEveryRepository(app, token, opts.installationId, account.login);
  const existing = await deps.m.GithubInstallation.findById(opts.installationId).lean();
  if (existing && existing.org_id !== opts.orgId) throw alreadyLinked();
  if (existing) return { installation: installationJson(existing), created: false };
  try {
    const made = await deps.m.GithubInstallation.create({
      _id: opts.installationId, org_id: opts.orgId, account_login: account.login, account_id: account.id, linked_by: opts.userId, created_at: deps.now(),
    });
    return { installation: installationJson(made.toObject()), created: true };
  } catch (err: any) {
    if (err?.code !== 11000) throw err;
    // Linked in between: by this organization (a second tab) it is the same answer, by another a conflict.
    const now = await deps.m.GithubInstallation.findById(opts.installationId).lean();
    if (now?.org_id === opts.orgId) return { installation: installationJson(now), created: false };
    throw alreadyLinked();
  }
}

const alreadyLinked = () => new AppError(409, 'installation_already_linked',
  'installation_id: This GitHub App installation is connected to another Folio organization; an installation serves one organization (unlink it there first)');

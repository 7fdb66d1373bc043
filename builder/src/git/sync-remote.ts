import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { appError, BuilderError, userError } from '../errors.ts';

/** Where to get a repository from and where to keep its objects. */
export interface RemoteOptions {
  /** HTTP(S) URL of the remote. */
  url: string;
  /** Local folder for the Git objects (no checkout is written). Reused across syncs when kept. */
  dir: string;
  /** Branch to sync; default: the remote's default branch (`HEAD`). */
  branch?: string;
  /** Access token sent as Basic auth `x-access-token:<token>` (GitHub, GitLab and Gitea accept it). */
  token?: string;
}

/**
 * Pack files a kept clone may hold before it is cloned afresh: each fetch adds one, and every
 * object read looks through them all.
 */
export const MAX_PACKS = 50;

/** Pack files in `gitdir` (each fetch adds one). */
function packCount(gitdir: string): number {
  try {
    return fs.readdirSync(path.join(gitdir, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
  } catch {
    return 0;
  }
}

/**
 * Brings `dir` to the tip of the remote branch: a depth-1, single-branch clone the first time,
 * then an incremental fetch of what the clone lacks, its objects kept beside the earlier ones (so
 * `diffCommits` can compare them). The fetch asks for no depth on purpose: a depth-1 fetch makes
 * the server send the new commit's whole tree (every file of the site) however small the change,
 * since a shallow commit's parents are not taken into account; without depth the server sends
 * only the objects that are new since the commit this clone last fetched (its branch ref is moved
 * there after each fetch, so it is what the fetch says it has). A history rewritten by a force
 * push is fetched back to where it meets the clone's. Past {@link MAX_PACKS} fetches the clone is
 * replaced by a fresh depth-1 clone.
 * Returns the new commit id. Refused credentials, a missing repository or branch are user
 * errors; anything else (network, server) is an app error, retried by the worker.
 */
export async function syncRemote(opts: RemoteOptions): Promise<{ commit: string; cloned: boolean }> {
  const auth = {
    onAuth: () => (opts.token === undefined ? { cancel: true } : { username: 'x-access-token', password: opts.token }),
    onAuthFailure: () => ({ cancel: true }),
    // With a token, the first request carries it: asked only after a 401, the credentials cost
    // every sync one more request (and the server one more lookup) before the two that fetch.
    ...(opts.token === undefined ? {} : { headers: { authorization: `Basic ${Buffer.from(`x-access-token:${opts.token}`).toString('base64')}` } }),
  };
  const gitdir = path.join(opts.dir, '.git');
  try {
    if (fs.existsSync(gitdir) && packCount(gitdir) >= MAX_PACKS) await fs.promises.rm(gitdir, { recursive: true, force: true });
    if (fs.existsSync(gitdir)) {
      // The local branch the fetch names as what it has. None (the clone synced another branch
      // so far, as a preview's): without a start the fetch would bring the branch's whole history,
      // so it takes the tip alone (depth 1), as the first clone did.
      const local = await localBranch(opts.dir, opts.branch);
      const res = await git.fetch({ fs, http, dir: opts.dir, url: opts.url, ref: opts.branch, singleBranch: true, tags: false, ...(local ? {} : { depth: 1 }), ...auth });
      if (!res.fetchHead) throw userError('git_branch_missing', `Branch "${opts.branch ?? 'HEAD'}" was not found in ${redact(opts.url)}`);
      // The next fetch says it has this commit.
      const ref = local ?? (opts.branch ? `refs/heads/${opts.branch}` : undefined);
      if (ref) await git.writeRef({ fs, dir: opts.dir, ref, value: res.fetchHead, force: true });
      return { commit: res.fetchHead, cloned: false };
    }
    await fs.promises.mkdir(opts.dir, { recursive: true });
    await git.clone({ fs, http, dir: opts.dir, url: opts.url, ref: opts.branch, singleBranch: true, depth: 1, noCheckout: true, noTags: true, ...auth });
    return { commit: await git.resolveRef({ fs, dir: opts.dir, ref: 'HEAD' }), cloned: true };
  } catch (err) {
    throw classify(err, opts);
  }
}

/** The kept clone's ref for `branch` (or the branch HEAD names) when it points at a commit, else undefined. */
async function localBranch(dir: string, branch: string | undefined): Promise<string | undefined> {
  try {
    const ref = branch ? `refs/heads/${branch}` : await git.resolveRef({ fs, dir, ref: 'HEAD', depth: 2 });
    await git.resolveRef({ fs, dir, ref });
    return ref;
  } catch {
    return undefined;
  }
}

function classify(err: unknown, opts: RemoteOptions): BuilderError {
  if (err instanceof BuilderError) return err;
  const e = err as { code?: string; data?: { statusCode?: number } };
  const where = redact(opts.url);
  const status = e.data?.statusCode;
  if (e.code === 'UserCanceledError' || status === 401 || status === 403) {
    return new BuilderError(opts.token === undefined
      ? `The Git server at ${where} asked for credentials; expected a token with read access`
      : `The Git server at ${where} refused the token; expected a token with read access`, { kind: 'user', code: 'git_auth_failed', cause: err });
  }
  if (status === 404) return new BuilderError(`No Git repository at ${where}`, { kind: 'user', code: 'git_repo_not_found', cause: err });
  if (e.code === 'NotFoundError' || e.code === 'CommitNotFetchedError') {
    return new BuilderError(`Branch "${opts.branch ?? 'HEAD'}" was not found in ${where}`, { kind: 'user', code: 'git_branch_missing', cause: err });
  }
  return appError('git_unreachable', `Could not fetch ${where}: ${(err as Error).message}`, err);
}

/** The URL without credentials, safe to show and log. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

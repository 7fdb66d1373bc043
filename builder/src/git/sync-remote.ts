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
 * Brings `dir` to the tip of the remote branch: a depth-1, single-branch clone the first time,
 * a depth-1 fetch afterwards (objects of earlier syncs stay, so `diffCommits` can compare them).
 * Returns the new commit id. Refused credentials, a missing repository or branch are user
 * errors; anything else (network, server) is an app error, retried by the worker.
 */
export async function syncRemote(opts: RemoteOptions): Promise<{ commit: string; cloned: boolean }> {
  const auth = {
    onAuth: () => (opts.token === undefined ? { cancel: true } : { username: 'x-access-token', password: opts.token }),
    onAuthFailure: () => ({ cancel: true }),
  };
  const gitdir = path.join(opts.dir, '.git');
  try {
    if (fs.existsSync(gitdir)) {
      const res = await git.fetch({ fs, http, dir: opts.dir, url: opts.url, ref: opts.branch, singleBranch: true, depth: 1, tags: false, ...auth });
      if (!res.fetchHead) throw userError('git_branch_missing', `Branch "${opts.branch ?? 'HEAD'}" was not found in ${redact(opts.url)}`);
      return { commit: res.fetchHead, cloned: false };
    }
    await fs.promises.mkdir(opts.dir, { recursive: true });
    await git.clone({ fs, http, dir: opts.dir, url: opts.url, ref: opts.branch, singleBranch: true, depth: 1, noCheckout: true, noTags: true, ...auth });
    return { commit: await git.resolveRef({ fs, dir: opts.dir, ref: 'HEAD' }), cloned: true };
  } catch (err) {
    throw classify(err, opts);
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

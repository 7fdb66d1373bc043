/**
 * The subject line and author of the commit a build read, for the deployment's report: the
 * control plane shows them beside the commit id, and cannot read own repositories itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { BuildSource } from '../build.ts';

/** Longest subject or author sent (the control plane refuses longer ones). */
export const MAX_COMMIT_FIELD = 300;

const cut = (text: string) => (text.length > MAX_COMMIT_FIELD ? `${text.slice(0, MAX_COMMIT_FIELD - 1)}…` : text);

/**
 * `{ message, author }` of commit `oid` in the repository `source` was read from: the first line
 * of the message and `Name <email>`. Undefined for a source that is no Git repository, or when
 * the commit cannot be read: the report goes without them, never fails for them.
 */
export async function readCommitInfo(source: BuildSource, oid: string | undefined): Promise<{ message: string; author: string } | undefined> {
  if (!oid || source.kind === 'snapshot') return undefined;
  const dir = source.kind === 'remote' ? source.workDir : source.dir;
  const gitdir = fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
  try {
    const { commit } = await git.readCommit({ fs, dir, gitdir, oid });
    return { message: cut(commit.message.split('\n')[0].trim()), author: cut(`${commit.author.name} <${commit.author.email}>`) };
  } catch {
    return undefined;
  }
}

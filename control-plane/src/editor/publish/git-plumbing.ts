/**
 * The Git plumbing a publish and a merge are made of, over a bare repository and without a work
 * tree: reading a commit's files, building a new tree in a temporary index (`GIT_INDEX_FILE`,
 * `read-tree`, `update-index --index-info`, `write-tree`), `commit-tree` with an explicit author
 * and committer, `merge-tree --write-tree` (Git 2.38 and later) and a compare-and-swap of a ref
 * (`update-ref <ref> <new> <old>`) that fails, instead of overwriting, when a push moved it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors.ts';
import { runGit } from '../../git/git-cli.ts';

/** A file of a tree: its mode (`100644`, `100755`, `120000`) and blob id. */
export interface TreeEntry { mode: string; blob: string }

/** A person as Git records them. */
export interface GitPerson { name: string; email: string }

const ZERO = '0000000000000000000000000000000000000000';

/** The commit `ref` (a branch name or any revision) points at, or undefined. */
export async function resolveCommit(gitdir: string, ref: string): Promise<string | undefined> {
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd: gitdir, allowFail: true });
  return code === 0 ? stdout.toString().trim() : undefined;
}

/** The commit branch `name` points at, or undefined when there is no such branch. */
export const branchCommit = (gitdir: string, name: string) => resolveCommit(gitdir, `refs/heads/${name}`);

/** Every branch with its commit. */
export async function listBranches(gitdir: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/heads/'], { cwd: gitdir, allowFail: true });
  return new Map(stdout.toString().split('\n').filter(Boolean).map((line) => {
    const i = line.lastIndexOf(' ');
    return [line.slice(0, i), line.slice(i + 1)] as [string, string];
  }));
}

/** Every file (blobs and links, recursively) of `commit`'s tree; empty for no commit. */
export async function readTree(gitdir: string, commit: string | null | undefined): Promise<Map<string, TreeEntry>> {
  const files = new Map<string, TreeEntry>();
  if (!commit) return files;
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: gitdir });
  for (const record of stdout.toString('utf8').split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, blob] = record.slice(0, tab).split(' ');
    if (type === 'blob') files.set(record.slice(tab + 1), { mode, blob });
  }
  return files;
}

/** The bytes of a blob. */
export async function readBlob(gitdir: string, blob: string): Promise<Buffer> {
  return (await runGit(['cat-file', 'blob', blob], { cwd: gitdir })).stdout;
}

/** Stores `bytes` as a blob; answers its id. */
export async function writeBlob(gitdir: string, bytes: Buffer): Promise<string> {
  return (await runGit(['hash-object', '-w', '--stdin'], { cwd: gitdir, input: bytes })).stdout.toString().trim();
}

/** One change of a new tree: a file written (`blob`, with `mode`) or removed (`blob` null). */
export interface TreeChange { path: string; blob: string | null; mode?: string }

/**
 * The tree of `base` (none: an empty tree) with `changes` applied, written without a work tree
 * through a temporary index file that is removed afterwards. Answers the tree id.
 */
export async function buildTree(gitdir: string, base: string | null | undefined, changes: TreeChange[]): Promise<string> {
  const indexFile = path.join(gitdir, `index-editor-${process.pid}-${randomBytes(6).toString('hex')}`);
  const env = { GIT_INDEX_FILE: indexFile };
  try {
    if (base) await runGit(['read-tree', base], { cwd: gitdir, env });
    else await runGit(['read-tree', '--empty'], { cwd: gitdir, env });
    if (changes.length) {
      // `--index-info` with NUL-terminated records: any path, any number of files, one process.
      const records = changes.map((c) => (c.blob ? `${c.mode ?? '100644'} ${c.blob}\t${c.path}` : `0 ${ZERO}\t${c.path}`));
      await runGit(['update-index', '-z', '--index-info'], { cwd: gitdir, env, input: Buffer.from(`${records.join('\0')}\0`, 'utf8') });
    }
    return (await runGit(['write-tree'], { cwd: gitdir, env })).stdout.toString().trim();
  } finally {
    fs.rmSync(indexFile, { force: true });
  }
}

/** The tree id of a commit. */
export async function treeOf(gitdir: string, commit: string): Promise<string> {
  return (await runGit(['rev-parse', `${commit}^{tree}`], { cwd: gitdir })).stdout.toString().trim();
}

/** Makes a commit of `tree` with `parents`, `author`, `committer` and `message`; answers its id. */
export async function commitTree(gitdir: string, opts: { tree: string; parents: string[]; author: GitPerson; committer: GitPerson; message: string; now: Date }): Promise<string> {
  const date = `${Math.floor(opts.now.getTime() / 1000)} +0000`;
  const env = {
    GIT_AUTHOR_NAME: opts.author.name, GIT_AUTHOR_EMAIL: opts.author.email, GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: opts.committer.name, GIT_COMMITTER_EMAIL: opts.committer.email, GIT_COMMITTER_DATE: date,
  };
  const parents = opts.parents.flatMap((p) => ['-p', p]);
  // The message through stdin: any text, no option parsing.
  const { stdout } = await runGit(['commit-tree', opts.tree, ...parents], { cwd: gitdir, env, input: Buffer.from(opts.message, 'utf8') });
  return stdout.toString().trim();
}

/**
 * Moves branch `name` to `commit` only if it still points at `expected` (undefined: only if it
 * does not exist yet). False when it moved meanwhile (a push won the race): nothing is
 * overwritten, the caller reads the branch again and retries.
 */
export async function compareAndSwapBranch(gitdir: string, name: string, commit: string, expected: string | undefined): Promise<boolean> {
  const { code } = await runGit(['update-ref', `refs/heads/${name}`, commit, expected ?? ZERO], { cwd: gitdir, allowFail: true });
  return code === 0;
}

/** Whether `ancestor` is reachable from `descendant`. */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  const { code } = await runGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: gitdir, allowFail: true });
  return code === 0;
}

/** The best common ancestor of two commits, or undefined when they share none. */
export async function mergeBase(gitdir: string, a: string, b: string): Promise<string | undefined> {
  const { stdout, code } = await runGit(['merge-base', a, b], { cwd: gitdir, allowFail: true });
  return code === 0 ? stdout.toString().trim() : undefined;
}

/**
 * The merge of two commits as Git makes it, without a work tree (`git merge-tree --write-tree`):
 * the tree (with conflict markers in conflicted files) and the conflicted paths.
 */
export async function mergeTrees(gitdir: string, ours: string, theirs: string): Promise<{ tree: string; conflicted: string[] }> {
  const { stdout, code } = await runGit(['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', ours, theirs], { cwd: gitdir, allowFail: true });
  // 0: clean, 1: conflicts; anything else (no common history, among others) is no merge Git makes.
  if (code !== 0 && code !== 1) throw new AppError(409, 'merge_failed', 'Git cannot merge these branches (they may share no history); merge them with git and push the result');
  const [tree, ...rest] = stdout.toString('utf8').split('\0');
  const conflicted = code === 1 ? [...new Set(rest.filter(Boolean))] : [];
  return { tree: tree.trim(), conflicted };
}

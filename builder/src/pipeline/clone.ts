/**
 * The clone step: the commit to build, as a `RepoSnapshot` (path → blob id, bytes on demand),
 * fetched from a remote, read from a local repository or folder, or handed in by the caller,
 * then seen from its docs root (the folder of `docs.json`, see config/docs-root.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isGitRepository, openDirSnapshot, openGitSnapshot, type RepoSnapshot } from '../git/repo-snapshot.ts';
import { findDocsRoot, rootedSnapshot } from '../config/docs-root.ts';
import { checkDocsRoot, checkRepository } from '../limits/build-limits.ts';
import type { BuildContext, BuildSource } from './context.ts';

/**
 * Opens the build's source, checks it against the repository limits, finds its docs root and
 * returns the snapshot seen from it (the root's files at paths relative to it), checked against
 * the limit of files a site may have.
 */
export async function clone(ctx: BuildContext): Promise<RepoSnapshot> {
  const snapshot = await openSource(ctx.opts.source);
  checkRepository(snapshot.sizeBytes, snapshot.files.size, ctx.limits);
  const root = findDocsRoot(snapshot.files, ctx.opts.docsRoot);
  const docs = rootedSnapshot(snapshot, root);
  checkDocsRoot(root, docs.files.size, ctx.limits);
  return docs;
}

/** Opens the repository snapshot of a build source (cloning or fetching a remote first). */
export async function openSource(source: BuildSource): Promise<RepoSnapshot> {
  if (source.kind === 'snapshot') return source.snapshot;
  if (source.kind === 'remote') {
    // Git's HTTP client loads only for a remote: a local repository (the CLI, CI) never needs it.
    const { syncRemote } = await import('../git/sync-remote.ts');
    const { commit } = await syncRemote({ url: source.url, dir: source.workDir, branch: source.branch, token: source.token });
    return openGitSnapshot(source.workDir, commit);
  }
  return isGitRepository(source.dir) ? openGitSnapshot(source.dir, source.ref ?? 'HEAD', gitdirOf(source.dir)) : openDirSnapshot(source.dir);
}

/** `<dir>/.git` for a working copy, `dir` itself for a bare repository. */
function gitdirOf(dir: string): string {
  return fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
}

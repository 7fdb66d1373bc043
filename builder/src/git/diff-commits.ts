import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';

/** One file that differs between two commits. */
export interface FileChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Blob id in the newer commit (absent when deleted). */
  oid?: string;
  /** Blob id in the older commit (absent when added). */
  previousOid?: string;
}

/**
 * Files that differ between commit `from` and commit `to` of the repository at `dir`, found
 * with `git.walk` over both trees: subtrees whose ids match are skipped without being read, so
 * the cost follows the size of the change, not of the repository. Sorted by path.
 */
export async function diffCommits(dir: string, from: string, to: string, gitdir = path.join(dir, '.git')): Promise<FileChange[]> {
  const cache = {};
  const changes: FileChange[] = [];
  await git.walk({
    fs, dir, gitdir, cache,
    trees: [git.TREE({ ref: from }), git.TREE({ ref: to })],
    map: async (filepath, [a, b]) => {
      if (filepath === '.') return true;
      const [aType, bType] = await Promise.all([a?.type(), b?.type()]);
      const [aOid, bOid] = await Promise.all([a?.oid(), b?.oid()]);
      if (aType === 'tree' && bType === 'tree') return aOid === bOid ? null : true;
      const aBlob = aType === 'blob' ? aOid : undefined;
      const bBlob = bType === 'blob' ? bOid : undefined;
      if (aBlob !== bBlob) {
        if (aBlob === undefined) changes.push({ path: filepath, change: 'added', oid: bBlob });
        else if (bBlob === undefined) changes.push({ path: filepath, change: 'deleted', previousOid: aBlob });
        else changes.push({ path: filepath, change: 'modified', oid: bBlob, previousOid: aBlob });
      }
      // A tree on one side only: descend to list its files as added or deleted.
      return aType === 'tree' || bType === 'tree' ? true : null;
    },
  });
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** Whether the commit object `oid` is present in the repository at `dir`. */
export async function hasCommit(dir: string, oid: string, gitdir = path.join(dir, '.git')): Promise<boolean> {
  try {
    const { type } = await git.readObject({ fs, dir, gitdir, oid, format: 'parsed' });
    return type === 'commit';
  } catch {
    return false;
  }
}

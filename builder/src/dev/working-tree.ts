import fs from 'node:fs';
import path from 'node:path';
import { appError } from '../errors.ts';
import { gitBlobId } from '../git/blob-id.ts';
import { OutsideLinks, type RepoSnapshot } from '../git/repo-snapshot.ts';
import { confinePath } from '../limits/confine-path.ts';

/** A snapshot of a working tree that follows edits without reading the whole tree again. */
export interface WorkingTree extends RepoSnapshot {
  /**
   * Re-reads the given repository paths (files or folders, changed, created or deleted) and
   * returns the file paths whose blob id changed. A symbolic link among them re-reads the tree.
   */
  refresh(repoPaths: Iterable<string>): Promise<string[]>;
}

/**
 * Folders never read: Git's own, and installed packages (a docs repository that has them does
 * not publish them, and they would make the first read slow).
 */
const SKIPPED = new Set(['.git', 'node_modules']);

/** Whether a repository path lies in a skipped folder (the watcher reports those too). */
export function isSkippedPath(repoPath: string): boolean {
  return repoPath.split('/').some((segment) => SKIPPED.has(segment));
}

/**
 * Opens the working tree at `dir` as it is on disk, uncommitted files included. Blob ids are
 * computed as Git computes them, so the page cache is shared with builds of the commits.
 */
export async function openWorkingTree(dir: string): Promise<WorkingTree> {
  const files = new Map<string, string>();
  /** Repository path → the file read for it (a link's target). */
  const onDisk = new Map<string, string>();
  let links = new Map<string, string>();

  const readFile = async (repoPath: string): Promise<boolean> => {
    const bytes = await fs.promises.readFile(path.join(dir, repoPath)).catch(() => undefined);
    if (bytes === undefined) return false;
    files.set(repoPath, gitBlobId(bytes));
    onDisk.set(repoPath, repoPath);
    return true;
  };
  const visit = async (rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.map(async (e) => {
      if (SKIPPED.has(e.name)) return;
      const repoPath = confinePath(rel === '' ? e.name : `${rel}/${e.name}`);
      if (e.isSymbolicLink()) links.set(repoPath, await fs.promises.readlink(path.join(dir, repoPath)));
      else if (e.isDirectory()) await visit(repoPath);
      else if (e.isFile()) await readFile(repoPath);
    }));
  };
  // A link leaving the folder is listed but unreadable (see OutsideLinks): only one the site uses fails.
  let outside = new OutsideLinks();
  const resolveLinks = () => {
    outside = new OutsideLinks();
    for (const [link, target] of links) {
      const real = outside.resolve(link, target, files);
      const oid = real === undefined ? undefined : files.get(real);
      if (oid !== undefined) { files.set(link, oid); onDisk.set(link, real!); }
    }
  };
  const readAll = async () => {
    files.clear();
    onDisk.clear();
    links = new Map();
    await visit('');
    resolveLinks();
  };
  await readAll();

  const tree: WorkingTree = {
    files,
    get sizeBytes() {
      let total = 0;
      for (const real of new Set(onDisk.values())) total += fs.statSync(path.join(dir, real), { throwIfNoEntry: false })?.size ?? 0;
      return total;
    },
    read: async (repoPath) => {
      outside.check(repoPath);
      const real = onDisk.get(repoPath);
      if (real === undefined) throw appError('file_missing', `No file "${repoPath}" in the folder`);
      return fs.promises.readFile(path.join(dir, real));
    },
    async refresh(repoPaths) {
      const before = new Map(files);
      let full = false;
      for (const raw of repoPaths) {
        if (isSkippedPath(raw)) continue;
        const repoPath = confinePath(raw);
        const stat = await fs.promises.lstat(path.join(dir, repoPath)).catch(() => undefined);
        if (stat?.isSymbolicLink() || links.has(repoPath)) { full = true; break; }
        for (const known of [...files.keys()]) {
          if (known === repoPath || known.startsWith(`${repoPath}/`)) { files.delete(known); onDisk.delete(known); }
        }
        if (stat?.isFile()) await readFile(repoPath);
        else if (stat?.isDirectory()) await visit(repoPath);
      }
      if (full) await readAll();
      else resolveLinks();
      const changed = new Set<string>();
      for (const [p, oid] of files) if (before.get(p) !== oid) changed.add(p);
      for (const p of before.keys()) if (!files.has(p)) changed.add(p);
      return [...changed].sort();
    },
  };
  return tree;
}

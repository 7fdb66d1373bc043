/**
 * The worker's clone folders: one per project under `WORK_DIR`, kept between jobs so the next
 * build of a project fetches only what changed. A worker serving many projects would otherwise
 * keep a clone of each forever; the least recently built ones beyond `maxClones` are removed
 * before each job (a removed project simply clones again, depth 1).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Marks `projectId`'s clone as used now and removes the least recently used clones beyond `maxClones`. */
export function useClone(workDir: string, projectId: string, maxClones: number): void {
  const mine = path.join(workDir, projectId);
  const now = new Date();
  // The folder's time is the project's last use: set before the build touches it.
  fs.mkdirSync(mine, { recursive: true });
  fs.utimesSync(mine, now, now);
  const clones = fs.readdirSync(workDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== projectId)
    .map((e) => ({ dir: path.join(workDir, e.name), used: fs.statSync(path.join(workDir, e.name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const old of clones.slice(Math.max(0, maxClones - 1))) fs.rmSync(old.dir, { recursive: true, force: true });
}

/** What a worker holds between jobs; `resources` lines and the leak test read it. */
export interface WorkerResources {
  /** Listeners on the worker's long-lived stop signal (1: its own). */
  abortListeners: number;
  /** Node's active handles and requests by type (`Timeout`, `TCPSocketWrap`, …). */
  active: Record<string, number>;
  heapUsedBytes: number;
  rssBytes: number;
  /** Entries in the work folder (clones). */
  clones: number;
}

/** Counts `process.getActiveResourcesInfo()` by type. */
export function activeResources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

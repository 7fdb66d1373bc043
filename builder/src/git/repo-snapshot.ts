import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { appError } from '../errors.ts';
import { confinePath, resolveLink } from '../limits/confine-path.ts';
import { gitBlobId } from './blob-id.ts';
import { createObjectReader, type GitObjectReader } from './object-reader.ts';

/**
 * One commit (or one plain folder) of a docs repository: every file's path and blob id, and
 * a reader for its bytes. Paths are checked with `confinePath`; symbolic links that stay in the
 * repository read as their target. A link that leaves it is listed (so a page or published file
 * it would be is still one) but reading it fails with `unsafe_path`: a link in a folder the site
 * does not publish (`.mintlify/skills/`, tooling) never stops a build, one the site uses does.
 */
export interface RepoSnapshot {
  /** Commit id when read from Git; absent for a plain folder. */
  commit?: string;
  /** Repository path → Git blob id (links resolved to their target's id). */
  files: Map<string, string>;
  /** Bytes the repository takes: the Git object database, or the files of a plain folder. */
  sizeBytes: number;
  /** Bytes of one file of the snapshot; throws `app` error `file_missing` for unknown paths. */
  read(repoPath: string): Promise<Uint8Array>;
  /** Bytes of any blob the repository still holds (an earlier commit's, for rename detection); `undefined` when absent. */
  readBlob?(oid: string): Promise<Uint8Array | undefined>;
  /** Symbolic links that leave the repository (listed in `files`, never read), sorted. */
  outsideLinks?: string[];
}

const MODE_TREE = 0o40000;
const MODE_LINK = 0o120000;
const MODE_COMMIT = 0o160000;

/** The entries of a tree object: mode, name and object id of each, in the tree's order. */
export function treeEntries(tree: Buffer): Array<{ mode: number; name: string; oid: string }> {
  const entries: Array<{ mode: number; name: string; oid: string }> = [];
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > tree.length) throw appError('git_object_corrupt', 'Unexpected end of a Git tree object');
    entries.push({ mode: parseInt(tree.toString('latin1', at, space), 8), name: tree.toString('utf8', space + 1, nul), oid: tree.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

/**
 * Tree objects this process parsed, by Git folder and id: a tree's id names its content, so a
 * long-lived builder (the worker, the dev preview) reads again only the trees an edit changed,
 * the path from the root to the edited file, instead of every folder of the repository.
 */
const parsedTrees = new Map<string, ReturnType<typeof treeEntries>>();
const PARSED_TREES = 20_000;

async function readTree(objects: GitObjectReader, gitdir: string, oid: string): Promise<ReturnType<typeof treeEntries>> {
  const key = `${gitdir}\0${oid}`;
  let entries = parsedTrees.get(key);
  if (entries) return entries;
  entries = treeEntries((await objects.read(oid)).content);
  if (parsedTrees.size >= PARSED_TREES) parsedTrees.delete(parsedTrees.keys().next().value!);
  parsedTrees.set(key, entries);
  return entries;
}

/** The root tree of a commit (annotated tags peeled). */
async function rootTree(objects: GitObjectReader, oid: string): Promise<string> {
  for (let depth = 0; depth < 16; depth++) {
    const { type, content } = await objects.read(oid);
    const head = /^(tree|object) ([0-9a-f]{40})$/m.exec(content.toString('utf8', 0, Math.min(content.length, 4096)));
    if (type === 'tree') return oid;
    if ((type !== 'commit' && type !== 'tag') || !head) break;
    oid = head[2];
  }
  throw appError('git_ref_missing', `Git object ${oid} is not a commit or a tree`);
}

/**
 * Reads the tree of `ref` (default `HEAD`) in the Git repository at `dir` without checking it
 * out. `gitdir` defaults to `<dir>/.git`; pass `dir` itself for a bare repository.
 */
export async function openGitSnapshot(dir: string, ref = 'HEAD', gitdir = path.join(dir, '.git')): Promise<RepoSnapshot> {
  const commit = await git.resolveRef({ fs, dir, gitdir, ref }).catch((cause) => {
    throw appError('git_ref_missing', `Git reference "${ref}" was not found in the repository`, cause);
  });
  const objects = createObjectReader(gitdir);
  const files = new Map<string, string>();
  const links: { path: string; oid: string }[] = [];
  // Depth first in tree order, as Git lists a tree.
  const walk = async (treeOid: string, prefix: string): Promise<void> => {
    for (const entry of await readTree(objects, gitdir, treeOid)) {
      const filepath = `${prefix}${entry.name}`;
      if (entry.mode === MODE_TREE) await walk(entry.oid, `${filepath}/`);
      else if (entry.mode === MODE_LINK) links.push({ path: confinePath(filepath), oid: entry.oid });
      else if (entry.mode !== MODE_COMMIT) files.set(confinePath(filepath), entry.oid);
    }
  };
  await walk(await rootTree(objects, commit), '');
  const readOid = async (oid: string) => (await objects.read(oid)).content;
  const outside = new OutsideLinks();
  for (const link of links) {
    const target = outside.resolve(link.path, Buffer.from(await readOid(link.oid)).toString('utf8'), files);
    const oid = target === undefined ? undefined : files.get(target);
    if (oid !== undefined) files.set(link.path, oid);
  }
  return {
    commit,
    files,
    ...outside.listed(),
    sizeBytes: fs.existsSync(path.join(gitdir, 'objects')) ? folderBytes(path.join(gitdir, 'objects')) : 0,
    read: async (repoPath) => {
      outside.check(repoPath);
      const oid = files.get(repoPath);
      if (oid === undefined) throw appError('file_missing', `No file "${repoPath}" in commit ${commit}`);
      return readOid(oid);
    },
    readBlob: (oid) => readOid(oid).catch(() => undefined),
  };
}

/** Reads a plain folder (not a Git repository); blob ids are computed the way Git computes them. */
export async function openDirSnapshot(dir: string): Promise<RepoSnapshot> {
  const files = new Map<string, string>();
  const onDisk = new Map<string, string>();
  const links: { path: string; target: string }[] = [];
  let sizeBytes = 0;
  const visit = async (rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      if (rel === '' && e.name === '.git') continue;
      const repoPath = confinePath(rel === '' ? e.name : `${rel}/${e.name}`);
      const abs = path.join(dir, repoPath);
      if (e.isSymbolicLink()) links.push({ path: repoPath, target: await fs.promises.readlink(abs) });
      else if (e.isDirectory()) await visit(repoPath);
      else if (e.isFile()) {
        const bytes = await fs.promises.readFile(abs);
        sizeBytes += bytes.byteLength;
        files.set(repoPath, gitBlobId(bytes));
        onDisk.set(repoPath, repoPath);
      }
    }
  };
  await visit('');
  const outside = new OutsideLinks();
  for (const link of links) {
    const target = outside.resolve(link.path, link.target, files);
    const oid = target === undefined ? undefined : files.get(target);
    if (oid !== undefined) { files.set(link.path, oid); onDisk.set(link.path, target!); }
  }
  return {
    files,
    ...outside.listed(),
    sizeBytes,
    read: async (repoPath) => {
      outside.check(repoPath);
      const real = onDisk.get(repoPath);
      if (real === undefined) throw appError('file_missing', `No file "${repoPath}" in the folder`);
      return fs.promises.readFile(path.join(dir, real));
    },
  };
}

/**
 * The symbolic links of a snapshot that leave the repository. Each is listed in `files` under an
 * id no object has (the Git blob id of its target's text behind a marker), so the layout still
 * sees the page or static file it would be; reading it throws the `unsafe_path` error.
 */
export class OutsideLinks {
  private errors = new Map<string, Error>();

  /** The repository path `target` points to, or undefined (recorded) when it leaves the repository. */
  resolve(linkPath: string, target: string, files: Map<string, string>): string | undefined {
    try {
      return resolveLink(linkPath, target);
    } catch (error) {
      this.errors.set(linkPath, error as Error);
      files.set(linkPath, gitBlobId(Buffer.from(`folio: link outside the repository\0${target}`)));
      return undefined;
    }
  }

  /** `{ outsideLinks }` when there are any, for a snapshot. */
  listed(): { outsideLinks?: string[] } {
    return this.errors.size ? { outsideLinks: [...this.errors.keys()].sort() } : {};
  }

  /** Throws the link's `unsafe_path` error when `repoPath` is a link leaving the repository. */
  check(repoPath: string): void {
    const error = this.errors.get(repoPath);
    if (error) throw error;
  }
}

/** Whether `dir` holds a Git repository (a `.git` folder, or a bare repository). */
export function isGitRepository(dir: string): boolean {
  return fs.existsSync(path.join(dir, '.git')) || (fs.existsSync(path.join(dir, 'HEAD')) && fs.existsSync(path.join(dir, 'objects')));
}

/**
 * Bytes of the files under each folder this process summed, with the folder's modification time:
 * Git adds objects as new files (and a repack adds and removes files), each of which changes its
 * folder's time, so a folder whose time is unchanged still holds the files summed.
 */
const folderSums = new Map<string, { mtimeMs: number; bytes: number; folders: string[] }>();
const FOLDER_SUMS = 100_000;

function folderBytes(dir: string): number {
  // Synchronous stats: a repository of loose objects has one file per page version, and a
  // promise per stat (four thread-pool hops each) cost ~0.6 s of CPU per 1,000 objects on
  // every build, edits included; a synchronous stat answers from the inode cache. A folder seen
  // before costs one stat: statting each of 2,000 loose objects took ~55 ms of every edit.
  const mtimeMs = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) return 0;
  let sum = folderSums.get(dir);
  if (sum?.mtimeMs !== mtimeMs) {
    sum = { mtimeMs, bytes: 0, folders: [] };
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const child = path.join(dir, e.name);
      if (e.isDirectory()) sum.folders.push(child);
      else if (e.isFile()) sum.bytes += fs.statSync(child, { throwIfNoEntry: false })?.size ?? 0;
    }
    if (folderSums.size >= FOLDER_SUMS) folderSums.clear();
    folderSums.set(dir, sum);
  }
  let total = sum.bytes;
  for (const folder of sum.folders) total += folderBytes(folder);
  return total;
}

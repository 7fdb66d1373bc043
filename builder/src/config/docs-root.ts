/**
 * The docs root: the folder of a repository holding `docs.json`, which the site is built from.
 * Mintlify reads everything (page paths, `snippets/`, `images/`, `public/`, `.mintignore`)
 * relative to the folder of `docs.json`; a monorepo keeps it in a subfolder such as `docs/`.
 *
 * The rule (builder README, "Repository layout"):
 * - a docs root given by the project (`build-site --root <dir>`, the project's "Docs folder"
 *   setting) is used as it is, and must hold `docs.json`;
 * - else `docs.json` at the repository root makes the root the docs root;
 * - else the shallowest `docs.json` in a folder (dot-folders and `node_modules/` left out), when
 *   it is the only one at that depth; two at the same depth are refused, naming both.
 *
 * The build then sees the docs root as the whole repository ({@link rootedSnapshot}).
 */
import { userError } from '../errors.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { isSafeRelativePath } from './fields.ts';

const CONFIG_FILE = 'docs.json';
/** Mintlify's older configuration file, not read here. */
const LEGACY_FILE = 'mint.json';

const hidden = (repoPath: string) => repoPath.split('/').slice(0, -1).some((s) => s.startsWith('.') || s === 'node_modules');

/**
 * Normalises a docs root given by the project: `docs`, `./docs/` and `docs/` all read `docs/`;
 * `''`, `.` and `./` the repository root.
 *
 * @throws BuilderError `invalid_docs_root` (kind `user`) for an absolute path or one with `..`.
 */
export function normalizeDocsRoot(value: string): string {
  const trimmed = value.trim().replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  if (!isSafeRelativePath(trimmed) || trimmed.includes('\\')) {
    throw userError('invalid_docs_root', `Docs folder "${value}": expected a folder inside the repository, such as docs, without .. or a leading /`);
  }
  return `${trimmed}/`;
}

/**
 * The docs root of a repository: `''` (its root) or a folder path ending with `/`.
 *
 * @param configured the project's docs root (see {@link normalizeDocsRoot}), when it sets one.
 * @throws BuilderError `invalid_config` (kind `user`) when no `docs.json` is found, or two are
 *   found at the same, shallowest depth.
 */
export function findDocsRoot(files: ReadonlyMap<string, unknown> | readonly string[], configured?: string): string {
  const paths: ReadonlySet<string> | ReadonlyMap<string, unknown> = Array.isArray(files) ? new Set(files) : files as ReadonlyMap<string, unknown>;
  const has = (p: string) => paths.has(p);
  if (configured !== undefined) {
    const root = normalizeDocsRoot(configured);
    if (!has(`${root}${CONFIG_FILE}`)) {
      throw userError('invalid_config', `${CONFIG_FILE}: file not found in ${root || 'the repository root'}; expected it in the docs folder the project names`, { file: `${root}${CONFIG_FILE}` });
    }
    return root;
  }
  if (has(CONFIG_FILE)) return '';
  let depth = Infinity;
  let found: string[] = [];
  for (const p of paths.keys()) {
    if (!(p.endsWith(`/${CONFIG_FILE}`)) || hidden(p)) continue;
    const d = p.split('/').length;
    if (d < depth) { depth = d; found = [p]; } else if (d === depth) found.push(p);
  }
  if (found.length === 1) return found[0].slice(0, -CONFIG_FILE.length);
  if (found.length > 1) {
    const [a, b] = found.sort();
    throw userError('invalid_config', `${CONFIG_FILE}: found ${a} and ${b}${found.length > 2 ? ` and ${found.length - 2} more` : ''}; expected one, or the docs folder set in the project (build-site --root <folder>)`);
  }
  if (has(LEGACY_FILE)) {
    throw userError('invalid_config', `${CONFIG_FILE}: file not found; expected it at the repository root (${LEGACY_FILE}, Mintlify's older format, is not read: Mintlify's "mint upgrade" turns it into docs.json)`, { file: CONFIG_FILE });
  }
  throw userError('invalid_config', `${CONFIG_FILE}: file not found; expected it at the repository root or in one of its folders, such as docs/`, { file: CONFIG_FILE });
}

/**
 * The snapshot seen from `root`: only the files under it, at their paths relative to it, so the
 * build reads the docs root as the repository Mintlify builds. The root itself is returned
 * unchanged.
 */
export function rootedSnapshot(snapshot: RepoSnapshot, root: string): RepoSnapshot {
  if (root === '') return snapshot;
  const files = new Map<string, string>();
  for (const [p, oid] of snapshot.files) if (p.startsWith(root)) files.set(p.slice(root.length), oid);
  const outsideLinks = snapshot.outsideLinks?.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
  return {
    ...(snapshot.commit ? { commit: snapshot.commit } : {}),
    files,
    ...(outsideLinks?.length ? { outsideLinks } : {}),
    sizeBytes: snapshot.sizeBytes,
    read: (repoPath) => snapshot.read(root + repoPath),
    ...(snapshot.readBlob ? { readBlob: snapshot.readBlob.bind(snapshot) } : {}),
  };
}

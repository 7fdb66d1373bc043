import path from 'node:path';
import { userError } from '../errors.ts';

/**
 * Checks that a repository path stays inside the checkout and returns it normalised
 * (`a/./b` → `a/b`). Absolute paths, `..` segments that climb out, backslashes and NUL bytes
 * are user errors (`unsafe_path`): a hostile tree can hold names Git itself would refuse.
 */
export function confinePath(repoPath: string): string {
  if (repoPath.includes('\0') || repoPath.includes('\\') || path.posix.isAbsolute(repoPath) || /^[a-zA-Z]:/.test(repoPath)) {
    throw unsafe(repoPath);
  }
  const normal = path.posix.normalize(repoPath);
  if (normal === '..' || normal.startsWith('../') || normal === '.' || normal === '') throw unsafe(repoPath);
  return normal;
}

/**
 * Resolves a symbolic link found at `linkPath` whose stored target is `target` (Git keeps
 * links as blobs of mode 120000 holding the target text). Returns the repository path it
 * points to, or throws `unsafe_path` when the link leaves the repository.
 */
export function resolveLink(linkPath: string, target: string): string {
  if (path.posix.isAbsolute(target)) throw linkOut(linkPath, target);
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(linkPath), target));
  if (joined === '..' || joined.startsWith('../') || joined === '.') throw linkOut(linkPath, target);
  return joined;
}

/**
 * Resolves an import specifier found in `fromPath` (e.g. `../snippets/note.mdx`) to a
 * repository path, refusing anything that climbs out of the repository.
 */
export function resolveRepoImport(fromPath: string, specifier: string): string {
  const joined = path.posix.join(path.posix.dirname(fromPath), specifier);
  if (path.posix.isAbsolute(specifier) || joined === '..' || joined.startsWith('../')) {
    throw userError('unsafe_path', `Unexpected import "${specifier}"; expected a file inside the repository`, { file: fromPath });
  }
  return confinePath(joined);
}

function unsafe(p: string) {
  return userError('unsafe_path', `Unexpected path "${p}"; expected a path inside the repository`, { file: p });
}

function linkOut(linkPath: string, target: string) {
  return userError('unsafe_path', `Symbolic link "${linkPath}" points to "${target}", outside the repository; expected a link to a file inside it`, { file: linkPath });
}

import { resolveRepoImport } from '../compile/imports.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';

// ESM import/export-from lines of MDX; the compile step validates them, this only follows them.
const IMPORT_RE = /^\s*(?:import|export)\b[^'"\n]*?(?:from\s*)?['"]([^'"\n]+)['"]/gm;

/** The blob id recorded for an imported file that does not exist (see `pageDeps`' `missing`). */
export const MISSING_BLOB = '';

/**
 * The repository files a page imports, directly or through other snippets, with their blob ids.
 * Recorded with the page's cache entry so editing a snippet invalidates every page using it.
 *
 * @param opts.missing record imports of files that do not exist as `MISSING_BLOB` (default
 *   false). A failed page needs them: adding the missing file must compile it again.
 */
export async function pageDeps(sourcePath: string, source: string, snapshot: RepoSnapshot, opts: { missing?: boolean } = {}): Promise<Record<string, string>> {
  const deps: Record<string, string> = {};
  const queue: { from: string; text: string }[] = [{ from: sourcePath, text: source }];
  while (queue.length > 0) {
    const { from, text } = queue.pop()!;
    for (const m of text.matchAll(IMPORT_RE)) {
      const res = resolveRepoImport(m[1], from);
      if (!res.ok || deps[res.path] !== undefined) continue;
      const oid = snapshot.files.get(res.path);
      if (oid === undefined) {
        if (opts.missing) deps[res.path] = MISSING_BLOB;
        continue;
      }
      deps[res.path] = oid;
      if (/\.(mdx|md|js|jsx)$/.test(res.path)) queue.push({ from: res.path, text: Buffer.from(await snapshot.read(res.path)).toString('utf8') });
    }
  }
  return deps;
}

/**
 * Whether recorded imports still have their blobs in `blobs` (a `MISSING_BLOB` import holds
 * while the file is still absent), and, when there are any, whether the page is still at the path
 * they were recorded for: relative imports resolve from the page's folder.
 */
export function depsHold(deps: Record<string, string>, recordedPath: string, sourcePath: string, blobs: ReadonlyMap<string, string>): boolean {
  const entries = Object.entries(deps);
  if (entries.length > 0 && recordedPath !== sourcePath) return false;
  return entries.every(([dep, oid]) => (blobs.get(dep) ?? MISSING_BLOB) === oid);
}

/**
 * Whether a result recorded with `deps` for a page with the same bytes at another path (a copy in
 * another language's or version's folder) answers for the page at `sourcePath` too: every
 * recorded file still has its blob, and the page's own imports, resolved from its own folder,
 * are recorded ones with the same blobs (`/snippets/a.jsx` from both; not `./a.mdx`, which names
 * another file from each folder). The result then differs only by location (`relocate`).
 */
export async function depsHoldAt(deps: Record<string, string>, sourcePath: string, source: string, snapshot: RepoSnapshot): Promise<boolean> {
  if (!depsHold(deps, sourcePath, sourcePath, snapshot.files)) return false;
  const own = await pageDeps(sourcePath, source, snapshot, { missing: true });
  return Object.entries(own).every(([dep, oid]) => deps[dep] === oid);
}

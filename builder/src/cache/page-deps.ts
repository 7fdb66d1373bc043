import { resolveRepoImport } from '../compile/imports.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';

// ESM import/export-from lines of MDX; the compile step validates them, this only follows them.
const IMPORT_RE = /^\s*(?:import|export)\b[^'"\n]*?(?:from\s*)?['"]([^'"\n]+)['"]/gm;

/**
 * The repository files a page imports, directly or through other snippets, with their blob ids.
 * Recorded with the page's cache entry so editing a snippet invalidates every page using it.
 */
export async function pageDeps(sourcePath: string, source: string, snapshot: RepoSnapshot): Promise<Record<string, string>> {
  const deps: Record<string, string> = {};
  const queue: { from: string; text: string }[] = [{ from: sourcePath, text: source }];
  while (queue.length > 0) {
    const { from, text } = queue.pop()!;
    for (const m of text.matchAll(IMPORT_RE)) {
      const res = resolveRepoImport(m[1], from);
      if (!res.ok || deps[res.path] !== undefined) continue;
      const oid = snapshot.files.get(res.path);
      if (oid === undefined) continue;
      deps[res.path] = oid;
      if (/\.(mdx|md|js|jsx)$/.test(res.path)) queue.push({ from: res.path, text: Buffer.from(await snapshot.read(res.path)).toString('utf8') });
    }
  }
  return deps;
}

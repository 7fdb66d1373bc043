// Folder-level import check for the control plane: a feature folder (src/<folder>/) may import
// another folder, but two folders never import each other, so each one can be read, tested and
// moved on its own. File-level cycles are madge's job; this catches the coarser tangle madge
// does not report (a ↔ b through different files).
//
//   npx tsx scripts/src/folder-cycles.ts [--edges] [src-dir]
//
// Prints every pair of folders that import each other and exits 1 if one is not in ALLOWED;
// `--edges` also lists every folder → folder edge with one example import. Also run by
// scripts/test/folder-cycles.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Known pairs, each with the reason it stays for now ("a|b" with a < b). A new pair fails the
 * check; a pair listed here that no longer occurs is reported so the list shrinks.
 */
export const ALLOWED = new Map<string, string>([
  ['db|roles', 'membership models store role names the role resolver defines, and the resolver reads those models'],
]);

export const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Every `.ts`/`.tsx` file below `dir`. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The top-level folder of `file` under `root` ('.' for files directly in it). */
function folderOf(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0] : '.';
}

/** folder → folder → one example "file → import" (relative imports only, within `root`). */
export function folderEdges(root: string): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const target = resolve(dirname(file), match[1] ?? match[2]);
      if (relative(root, target).startsWith('..')) continue;
      const to = folderOf(root, target);
      if (to === from || to === '.' || from === '.') continue;
      const row = edges.get(from) ?? new Map<string, string>();
      if (!row.has(to)) row.set(to, `${relative(root, file)} → ${match[1] ?? match[2]}`);
      edges.set(from, row);
    }
  }
  return edges;
}

/** Pairs of folders that import each other, each with one example import per direction. */
export function mutualPairs(edges: Map<string, Map<string, string>>): { pair: string; there: string; back: string }[] {
  const pairs: { pair: string; there: string; back: string }[] = [];
  for (const [from, row] of edges) {
    for (const [to, there] of row) {
      const back = edges.get(to)?.get(from);
      if (back && from < to) pairs.push({ pair: `${from}|${to}`, there, back });
    }
  }
  return pairs.sort((a, b) => a.pair.localeCompare(b.pair));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(dirname(fileURLToPath(import.meta.url)), '../../control-plane/src'));
  const edges = folderEdges(root);
  if (args.includes('--edges')) {
    for (const [from, row] of [...edges].sort()) for (const [to, example] of [...row].sort()) console.log(`${from} → ${to}   (${example})`);
  }
  const pairs = mutualPairs(edges);
  const failing = pairs.filter((p) => !ALLOWED.has(p.pair));
  for (const p of pairs) console.log(`${ALLOWED.has(p.pair) ? 'allowed' : 'cycle'}  ${p.pair.replace('|', ' ↔ ')}\n    ${p.there}\n    ${p.back}`);
  for (const pair of ALLOWED.keys()) if (!pairs.some((p) => p.pair === pair)) console.log(`gone     ${pair.replace('|', ' ↔ ')} (remove it from ALLOWED)`);
  console.log(failing.length ? `${failing.length} folder pair(s) import each other` : 'no new folder pairs import each other');
  process.exitCode = failing.length ? 1 : 0;
}

// `npx tsx scripts/src/import-cycles.ts [folder …]`: every import circle between source files
// (a file that, through its imports, imports itself), counting type-only and dynamic imports;
// exits 1 when there is one. Without folders it checks every package's sources. Also run by
// scripts/test/import-cycles.test.ts, so CI fails on a new circle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPattern, sourceFiles } from './folder-cycles.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The source folders of every package. */
export const SOURCE_ROOTS = ['builder/src', 'control-plane/src', 'control-plane/embedded-mongo/src', 'control-plane/dashboard-app/src', 'site-template/src', 'scripts/src'].map((p) => join(repo, p));

/** The file a relative import names (sources write extensions; a folder means its index). */
function resolveImport(file: string, spec: string): string | undefined {
  const target = resolve(dirname(file), spec);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** file → the files it imports (relative imports only: packages are kept apart by lint). */
export function fileEdges(roots: readonly string[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const root of roots) {
    for (const file of sourceFiles(root)) {
      const to = new Set<string>();
      for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
        const target = resolveImport(file, match[1] ?? match[2]);
        if (target) to.add(target);
      }
      edges.set(file, to);
    }
  }
  return edges;
}

/** Each group of files that import one another, round or through others (Tarjan's strongly connected components). */
export function importCycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (start: string) => {
    // Iterative, so a long chain of imports cannot overflow the call stack.
    const work: Array<{ file: string; targets: Iterator<string> }> = [];
    const enter = (file: string) => {
      index.set(file, next); low.set(file, next); next++;
      stack.push(file); onStack.add(file);
      work.push({ file, targets: (edges.get(file) ?? new Set<string>()).values() });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const step = top.targets.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) { const parent = work[work.length - 1]!.file; low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!)); }
      if (low.get(top.file) !== index.get(top.file)) continue;
      const group: string[] = [];
      let member: string;
      do { member = stack.pop()!; onStack.delete(member); group.push(member); } while (member !== top.file);
      if (group.length > 1 || edges.get(top.file)?.has(top.file)) groups.push(group.sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return groups;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const groups = importCycles(fileEdges(folders.length ? folders.map((f) => resolve(f)) : SOURCE_ROOTS));
  for (const group of groups) console.log(`circle: ${group.map((f) => relative(repo, f)).join(' ↔ ')}`);
  console.log(groups.length ? `${groups.length} import circle(s)` : 'no import circles');
  process.exitCode = groups.length ? 1 : 0;
}

/**
 * What MDX may import: only files inside the repository, by relative path (`./x.mdx`,
 * `../snippets/x.mdx`) or repository-rooted path (`/snippets/x.mdx`), with one of the snippet
 * extensions. Bare packages, `node:` built-ins, URLs and paths leaving the repository are user
 * errors (`mdx_import`) with the import's position; so is a dynamic `import()` anywhere in the
 * page, since its target is only known when the page runs.
 */
import { posix } from 'node:path';
import type { Root } from 'mdast';
import type { Node as EsNode } from 'estree';
import { userError, type BuilderError } from '../errors.ts';
import { PAGE_MODULES } from './page-globals.ts';

/** Extensions an import may name. */
export const SNIPPET_EXTENSIONS = ['.mdx', '.md', '.js', '.jsx', '.json'] as const;

/** A resolved repository path or why the specifier is refused. */
export type ImportResolution = { ok: true; path: string } | { ok: false; message: string };

/**
 * Resolves `spec` imported from the repository file `importer` to a repository path.
 * Does not check that the file exists.
 */
export function resolveRepoImport(spec: string, importer: string): ImportResolution {
  const refuse = (why: string): ImportResolution => ({ ok: false, message: `Unexpected import of \`${spec}\`${why}` });
  let joined: string;
  if (spec.startsWith('./') || spec.startsWith('../')) joined = posix.join(posix.dirname(importer), spec);
  else if (spec.startsWith('/') && !spec.startsWith('//')) joined = posix.normalize(spec.slice(1));
  else return refuse('; expected a relative or /-rooted path to a file inside the repository');
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) return refuse(': it leaves the repository');
  if (!SNIPPET_EXTENSIONS.some((ext) => joined.endsWith(ext))) return refuse(`; expected a ${SNIPPET_EXTENSIONS.join(', ')} file`);
  return { ok: true, path: joined };
}

type Located = EsNode & { loc?: { start: { line: number; column: number } } | null };

/** Visits every typed node under `node`, descending through `data.estree` and JSX attribute values too. */
function walk(node: unknown, visit: (n: Located) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  if (typeof (node as { type?: unknown }).type === 'string') visit(node as Located);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'loc' && key !== 'range' && key !== 'position' && typeof value === 'object' && value !== null) walk(value, visit);
  }
}

/** An import found in a page or snippet, resolved to a repository path. */
export interface FoundImport {
  path: string;
  spec: string;
  /** Local name of a default import (`import Name from …`), the component a snippet becomes. */
  defaultName?: string;
  line?: number;
  column?: number;
}

/**
 * Checks every import under `root` (an MDX syntax tree or a JavaScript program) and returns the
 * repository paths imported. Throws the first refused import as an `mdx_import` user error at
 * `position(node)`.
 */
export function checkImportsIn(root: unknown, file: string, position: (node: Located) => { line: number; column: number } | undefined): FoundImport[] {
  const found: FoundImport[] = [];
  const fail = (message: string, at: Located): BuilderError => userError('mdx_import', message, { file, ...position(at) });
  walk(root, (n) => {
    if (n.type === 'ImportExpression') throw fail('Unexpected dynamic import(); expected a static import of a file inside the repository', n);
    if (n.type !== 'ImportDeclaration' && n.type !== 'ExportNamedDeclaration' && n.type !== 'ExportAllDeclaration') return;
    const source = n.source;
    if (!source || typeof source.value !== 'string' || PAGE_MODULES.has(source.value)) return;
    const resolved = resolveRepoImport(source.value, file);
    if (!resolved.ok) throw fail(resolved.message, n);
    const named = n.type === 'ImportDeclaration' ? n.specifiers.find((sp) => sp.type === 'ImportDefaultSpecifier') : undefined;
    found.push({ path: resolved.path, spec: source.value, ...(named ? { defaultName: named.local.name } : {}), ...position(n) });
  });
  return found;
}

/** Checks every import of a parsed MDX page (estree nodes carry 1-based lines, 0-based columns). */
export function checkImports(tree: Root, file: string): FoundImport[] {
  return checkImportsIn(tree.children, file, (n) => (n.loc ? { line: n.loc.start.line, column: n.loc.start.column + 1 } : undefined));
}

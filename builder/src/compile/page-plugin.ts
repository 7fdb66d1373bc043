/**
 * The Vite plugin that serves a batch of pages and their snippets from memory: pages and
 * imported repository files get module ids `/folio-repo/<batch>/<repository path>` (never read
 * from disk), imports are resolved inside the repository only, and Preact (also under React's
 * names, page-globals.ts) is the one external package a page may reach.
 */
import { parseAst, type Plugin } from 'vite';
import { userError } from '../errors.ts';
import { checkImportsIn, resolveRepoImport } from './imports.ts';
import { HOOKS, HOOKS_MODULE, PAGE_MODULES, REACT_SHIM, unboundHooks } from './page-globals.ts';
import { wrapSource } from './render-positions.ts';
import { COMPONENTS_MODULE, componentScopePrelude, unboundComponents } from './component-scope.ts';

const PREFIX = '/folio-repo/';

/** 1-based line and column of a character offset. */
function position(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The files of the batch being compiled and how to read other repository files. */
export interface PageSource {
  /** Source text of a repository path, undefined when the file does not exist. */
  read(repoPath: string): Promise<string | undefined>;
}

/** Module id ↔ repository path for one batch. */
export class BatchIds {
  readonly batch: number;
  constructor(batch: number) {
    this.batch = batch;
  }
  /** Module id of a repository path. */
  id(repoPath: string): string {
    return `${PREFIX}${this.batch}/${repoPath}`;
  }
  /** Repository path of a module id (the id itself when it is not a repository module). */
  static repoPath(id: string): string {
    if (!id.startsWith(PREFIX)) return id;
    const rest = id.slice(PREFIX.length);
    return rest.slice(rest.indexOf('/') + 1);
  }
  /** True for repository module ids of any batch. */
  static isRepo(id: string): boolean {
    return id.startsWith(PREFIX);
  }
}

interface ImportNode { type: string; start: number; end: number; source: { value: unknown; start: number; end: number }; specifiers: Array<{ type: string; imported?: { name?: string } }> }

/** `code` with `from 'react'` replaced by `from 'preact/hooks'` in imports of hooks only. */
function reactHooksFromPreact(code: string, program: unknown): string {
  const imports = ((program as { body: ImportNode[] }).body).filter((n) => n.type === 'ImportDeclaration' && n.source.value === 'react'
    && n.specifiers.length > 0 && n.specifiers.every((sp) => sp.type === 'ImportSpecifier' && HOOKS.has(sp.imported?.name ?? '')));
  let out = code;
  for (const node of imports.reverse()) out = `${out.slice(0, node.source.start)}'${HOOKS_MODULE}'${out.slice(node.source.end)}`;
  return out;
}

/** Creates the plugin; `current()` gives the source of the batch in progress. */
export function folioPagesPlugin(current: () => PageSource): Plugin {
  return {
    name: 'folio:pages',
    enforce: 'pre',
    resolveId(source, importer) {
      if (BatchIds.isRepo(source)) return source;
      // The React shim's own imports load natively too: a second copy of preact/hooks would not
      // see the components the renderer is rendering.
      if (importer === REACT_SHIM && PAGE_MODULES.has(source)) return { id: source, external: true };
      if (importer === undefined || !BatchIds.isRepo(importer)) return null;
      // The template's components, bound into pages and snippets (component-scope.ts): resolved
      // as when the engine first loaded them, so the runner reuses that one evaluated copy.
      if (source === COMPONENTS_MODULE) return this.resolve(source, undefined, { skipSelf: true });
      const native = PAGE_MODULES.get(source);
      // Packages load natively; the React shim is a file Vite serves like the template's modules.
      if (native !== undefined) return { id: native, external: !native.startsWith('/') };
      const file = BatchIds.repoPath(importer);
      const resolved = resolveRepoImport(source, file);
      // MDX imports were checked with positions already; this catches imports of JS snippets.
      if (!resolved.ok) throw userError('mdx_import', resolved.message, { file });
      return importer.slice(0, importer.length - file.length) + resolved.path;
    },
    transform(code, id) {
      // JavaScript snippets: Vite hands `node:` built-ins to Node before any resolveId hook
      // runs, so imports are checked on the source instead.
      if (!BatchIds.isRepo(id) || !/\.jsx?$/.test(id)) return null;
      const file = BatchIds.repoPath(id);
      const program = parseAst(code, { lang: id.endsWith('.jsx') ? 'jsx' : 'js' }, file);
      checkImportsIn(program, file, (n) => position(code, (n as unknown as { start: number }).start));
      // Hooks imported from 'react' come straight from preact/hooks: through the shim, a hook
      // called while rendering found no current component in a JavaScript snippet.
      const hooks = unboundHooks(program);
      // Built-in components the snippet names without importing, as Mintlify provides them.
      const prelude = componentScopePrelude(unboundComponents(program));
      const fromPreact = reactHooksFromPreact(code, program);
      const lang = id.endsWith('.jsx') ? 'jsx' : 'js';
      // Errors thrown while its components render name their place in this file (render-positions.ts).
      // Offsets are those of the text wrapped: parsed again only when the import rewrite changed it.
      const source = wrapSource(fromPreact, fromPreact === code ? program : parseAst(fromPreact, { lang }, file), file);
      // React hooks used without an import, as Mintlify provides them (page-globals.ts), imported
      // at the end so line numbers stay those of the file (imports are hoisted).
      if (source === code && hooks.length === 0 && prelude === '') return null;
      return { code: prelude + (hooks.length ? `${source}\nimport { ${hooks.join(', ')} } from '${HOOKS_MODULE}';\n` : source), map: null };
    },
    async load(id) {
      if (!BatchIds.isRepo(id)) return null;
      const code = await current().read(BatchIds.repoPath(id));
      if (code === undefined) throw userError('mdx_import', `Unexpected import of ${BatchIds.repoPath(id)}: it does not exist in the repository`);
      return code;
    },
  };
}

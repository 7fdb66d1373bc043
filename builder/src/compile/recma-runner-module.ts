/**
 * The recma plugin that writes a compiled page as Vite's module runner evaluates it, from the
 * syntax tree MDX already has. Vite's own SSR transform would print the module, parse it again
 * and rewrite it: 7.5% of a page's compile CPU. Imports become
 * `const {…} = await __vite_ssr_import__("<id>", { importedNames })` with repository imports
 * resolved to their module ids (the runner does not resolve static imports itself), exports
 * become `__vite_ssr_exportName__` getters, and `import.meta` becomes
 * `__vite_ssr_import_meta__`.
 *
 * Imported names are bound once, when the import is evaluated (not live bindings as in ESM):
 * page modules only read them when rendering, after every import has been evaluated.
 */
import type { Node, Program, Statement, ModuleDeclaration, Pattern, Expression, Identifier } from 'estree';
import type { VFile } from 'vfile';
import { userError } from '../errors.ts';
import { resolveRepoImport } from './imports.ts';
import { HOOKS_MODULE, mentionsHook, PAGE_MODULES, unboundHooks } from './page-globals.ts';
import { BUILT_IN_NAMES, COMPONENTS_MODULE, isSnippetPath, MDX_CONTENT_FUNCTIONS, snippetVariables, unboundComponents } from './component-scope.ts';

const id = (name: string): Identifier => ({ type: 'Identifier', name });
const str = (value: string) => ({ type: 'Literal' as const, value });
const call = (callee: string, args: Expression[]): Expression => ({ type: 'CallExpression', callee: id(callee), arguments: args, optional: false });
const constant = (target: Pattern, init: Expression): Statement => ({ type: 'VariableDeclaration', kind: 'const', declarations: [{ type: 'VariableDeclarator', id: target, init }] });
/** `const { a, b } = init`. */
const destructure = (names: string[], init: Expression): Statement => constant({
  type: 'ObjectPattern',
  properties: names.map((name) => ({ type: 'Property', key: id(name), value: id(name), kind: 'init', computed: false, method: false, shorthand: true })),
}, init);

/** `__vite_ssr_exportName__("name", () => { try { return value } catch {} })`, as Vite writes it. */
function exportName(name: string, value: Expression): Statement {
  const getter: Expression = {
    type: 'ArrowFunctionExpression', params: [], expression: false, body: {
      type: 'BlockStatement', body: [{ type: 'TryStatement', block: { type: 'BlockStatement', body: [{ type: 'ReturnStatement', argument: value }] }, handler: { type: 'CatchClause', param: null, body: { type: 'BlockStatement', body: [] } } }],
    },
  };
  return { type: 'ExpressionStatement', expression: call('__vite_ssr_exportName__', [str(name), getter]) };
}

/** Names a declaration pattern binds. */
function boundNames(pattern: Pattern | null | undefined): string[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier': return [pattern.name];
    case 'ObjectPattern': return pattern.properties.flatMap((p) => boundNames(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern': return pattern.elements.flatMap((e) => boundNames(e));
    case 'RestElement': return boundNames(pattern.argument);
    case 'AssignmentPattern': return boundNames(pattern.left);
    default: return [];
  }
}

/** Replaces every `import.meta` in `node` (in place). */
function replaceImportMeta(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (value && typeof value === 'object' && (value as Node).type === 'MetaProperty') (node as Record<string, unknown>)[key] = id('__vite_ssr_import_meta__');
    else if (Array.isArray(value)) value.forEach((item, i) => {
      if (item && (item as Node).type === 'MetaProperty') value[i] = id('__vite_ssr_import_meta__');
      else replaceImportMeta(item);
    });
    else replaceImportMeta(value);
  }
}

/** The plugin (use in `recmaPlugins`); `repoPath` gives the repository path of a module id. */
export function recmaRunnerModule(opts: { repoPath(moduleId: string): string }) {
  return function transform(tree: Program, vfile: VFile): void {
    const moduleId = vfile.path;
    const file = opts.repoPath(moduleId);
    const prefix = moduleId.slice(0, moduleId.length - file.length);
    const resolve = (spec: string): string => {
      // Bare module names a page may import are left for the runner to load natively.
      const native = PAGE_MODULES.get(spec);
      if (native !== undefined) return native;
      if (spec === COMPONENTS_MODULE) return spec;
      const resolved = resolveRepoImport(spec, file);
      if (!resolved.ok) throw userError('mdx_import', resolved.message, { file });
      return prefix + resolved.path;
    };
    let imports = 0;
    const importOf = (spec: string, names: string[] = []): Expression => ({
      type: 'AwaitExpression',
      argument: call('__vite_ssr_import__', names.length
        ? [str(resolve(spec)), { type: 'ObjectExpression', properties: [{ type: 'Property', key: id('importedNames'), value: { type: 'ArrayExpression', elements: names.map(str) }, kind: 'init', computed: false, method: false, shorthand: false }] }]
        : [str(resolve(spec))]),
    });
    const head: Statement[] = [];
    const exported: Statement[] = [];
    const body: Statement[] = [];
    // React hooks used without an import, as Mintlify provides them (page-globals.ts).
    const hooks = mentionsHook(String(vfile.value)) ? unboundHooks(tree) : [];
    if (hooks.length) {
      head.push(destructure(hooks, importOf(HOOKS_MODULE, hooks)));
    }
    // Built-in components named in the page's own code, as Mintlify provides them (component-scope.ts).
    const builtIns = unboundComponents(tree, BUILT_IN_NAMES, MDX_CONTENT_FUNCTIONS);
    if (builtIns.length) {
      head.push(destructure(builtIns, { type: 'MemberExpression', object: importOf(COMPONENTS_MODULE, ['components']), property: id('components'), computed: false, optional: false }));
    }
    // A snippet's props are its variables, as on Mintlify (`{word}` with `<Snippet word="…" />`).
    const content = isSnippetPath(file) ? (tree.body as Statement[]).find((n) => n.type === 'FunctionDeclaration' && n.id?.name === '_createMdxContent') : undefined;
    if (content?.type === 'FunctionDeclaration') {
      const variables = snippetVariables(tree, content);
      if (variables.length) {
        content.body.body.unshift(destructure(variables, id('props')));
      }
    }
    for (const node of tree.body as Array<Statement | ModuleDeclaration>) {
      switch (node.type) {
        case 'ImportDeclaration': {
          const spec = String(node.source.value);
          const namespace = node.specifiers.find((s) => s.type === 'ImportNamespaceSpecifier');
          const named = node.specifiers.filter((s) => s.type !== 'ImportNamespaceSpecifier');
          const names = named.map((s) => (s.type === 'ImportDefaultSpecifier' ? 'default' : s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value)));
          const target = namespace ? namespace.local.name : `__folio_import_${imports++}__`;
          head.push(constant(id(target), importOf(spec, names)));
          if (named.length) {
            head.push(constant({
              type: 'ObjectPattern',
              properties: named.map((s, i) => ({ type: 'Property', key: str(names[i]), value: id(s.local.name), kind: 'init', computed: true, method: false, shorthand: false })),
            }, id(target)));
          }
          break;
        }
        case 'ExportNamedDeclaration': {
          if (node.declaration) {
            body.push(node.declaration);
            const names = node.declaration.type === 'VariableDeclaration' ? node.declaration.declarations.flatMap((d) => boundNames(d.id)) : [node.declaration.id.name];
            for (const name of names) exported.push(exportName(name, id(name)));
          } else {
            const from = node.source ? `__folio_import_${imports++}__` : undefined;
            if (from) head.push(constant(id(from), importOf(String(node.source!.value))));
            for (const s of node.specifiers) {
              const local = s.local.type === 'Identifier' ? s.local.name : String(s.local.value);
              const name = s.exported.type === 'Identifier' ? s.exported.name : String(s.exported.value);
              exported.push(exportName(name, from ? { type: 'MemberExpression', object: id(from), property: str(local), computed: true, optional: false } : id(local)));
            }
          }
          break;
        }
        case 'ExportDefaultDeclaration': {
          const declaration = node.declaration;
          if ((declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') && declaration.id) {
            body.push(declaration as Statement);
            exported.push(exportName('default', id(declaration.id.name)));
          } else {
            const value = declaration.type === 'FunctionDeclaration' ? { ...declaration, type: 'FunctionExpression' as const } : declaration.type === 'ClassDeclaration' ? { ...declaration, type: 'ClassExpression' as const } : declaration;
            body.push(constant(id('__vite_ssr_export_default__'), value as Expression));
            exported.push(exportName('default', id('__vite_ssr_export_default__')));
          }
          break;
        }
        case 'ExportAllDeclaration': {
          const from = `__folio_import_${imports++}__`;
          head.push(constant(id(from), importOf(String(node.source.value))));
          if (node.exported) exported.push(exportName(node.exported.type === 'Identifier' ? node.exported.name : String(node.exported.value), id(from)));
          else head.push({ type: 'ExpressionStatement', expression: call('__vite_ssr_exportAll__', [id(from)]) });
          break;
        }
        default:
          body.push(node);
      }
    }
    // Exports first, as Vite writes them: their getters tolerate bindings not yet initialised.
    tree.body = [...exported, ...head, ...body];
    tree.sourceType = 'script';
    if (String(vfile.value).includes('import.meta')) replaceImportMeta(tree);
  };
}

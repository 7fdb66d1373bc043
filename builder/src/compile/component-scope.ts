/**
 * Built-in components in scope everywhere, as on Mintlify: a page's own ESM
 * (`export const Box = () => <Note>…</Note>`), imported MDX snippets and JavaScript snippets
 * (`.jsx`/`.js`) may name any template component without importing it. MDX itself only hands
 * components to the elements of the page's content (`props.components`), so a component defined
 * in ESM met `Note is not defined` when it rendered.
 *
 * A module that names a built-in component it does not bind at its top level gets the name
 * bound to the template's component, the same object `props.components` carries (one copy of the
 * template, so contexts such as `<Tabs>`/`<Tab>` work across the two). A page or snippet that
 * imports or declares a component of the same name keeps its own: top-level bindings are never
 * shadowed, and an inner binding shadows the injected one as JavaScript scoping does.
 */
import { COMPONENT_NAMES } from '@folio/site-template/components/names.ts';
import { eachEsChild } from './estree-walk.ts';
import { TEMPLATE_COMPONENTS } from './template-components.ts';

/** Root names of the built-in components (`Tree` for `Tree.Folder`). */
export const BUILT_IN_NAMES: ReadonlySet<string> = new Set(COMPONENT_NAMES.map((name) => name.split('.')[0]));

/** The functions MDX writes around a page's content, whose component names come from `props.components`. */
export const MDX_CONTENT_FUNCTIONS: ReadonlySet<string> = new Set(['_createMdxContent', 'MDXContent', '_missingMdxReference']);

/** The module the injected names are read from, as the runner already loaded it. */
export const COMPONENTS_MODULE = TEMPLATE_COMPONENTS;

interface Node { type: string; [key: string]: unknown }

/** Names a declaration pattern binds (`const { A, b: [C] } = …`). */
export function patternNames(pattern: unknown, out: Set<string>): void {
  const p = pattern as Node | null | undefined;
  if (!p || typeof p !== 'object') return;
  if (p.type === 'Identifier') out.add(p.name as string);
  else if (p.type === 'ObjectPattern') for (const prop of p.properties as Node[]) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
  else if (p.type === 'ArrayPattern') for (const el of p.elements as Node[]) patternNames(el, out);
  else if (p.type === 'RestElement') patternNames(p.argument, out);
  else if (p.type === 'AssignmentPattern') patternNames(p.left, out);
}

/** Names bound at the top level of a program: imports, declarations, exported declarations. */
function topLevelNames(program: { body: Node[] }): Set<string> {
  const out = new Set<string>();
  for (const statement of program.body) {
    const node = (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') && statement.declaration
      ? statement.declaration as Node : statement;
    if (node.type === 'ImportDeclaration') for (const s of node.specifiers as Node[]) patternNames(s.local, out);
    else if (node.type === 'VariableDeclaration') for (const d of node.declarations as Node[]) patternNames(d.id, out);
    else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) patternNames(node.id, out);
  }
  return out;
}

/** Keys holding a name that is not a reference (`a.Note`, `{ Note: 1 }`, `<X Note="">`). */
export function isNameOnly(parent: Node, key: string): boolean {
  switch (parent.type) {
    case 'MemberExpression': return key === 'property' && !parent.computed;
    case 'Property': case 'PropertyDefinition': case 'MethodDefinition': return key === 'key' && !parent.computed;
    case 'JSXMemberExpression': return key === 'property';
    case 'JSXAttribute': return key === 'name';
    case 'LabeledStatement': case 'BreakStatement': case 'ContinueStatement': return key === 'label';
    case 'ImportSpecifier': case 'ExportSpecifier': return true;
    default: return false;
  }
}

/**
 * Built-in component names a program refers to without binding them at its top level, sorted.
 * Position data is not walked; `names` defaults to every built-in. `skip` names top-level
 * functions not to walk: a compiled MDX page's content function gets its components from
 * `props.components` already, and walking it cost ~30 ms on a 200 KB changelog.
 */
export function unboundComponents(program: unknown, names: ReadonlySet<string> = BUILT_IN_NAMES, skip: ReadonlySet<string> = new Set()): string[] {
  const bound = topLevelNames(program as { body: Node[] });
  const used = new Set<string>();
  const visit = (node: Node): void => eachEsChild(node, (child, key) => {
    if ((child.type === 'Identifier' || child.type === 'JSXIdentifier') && names.has(child.name as string)) {
      if (!isNameOnly(node, key) && !bound.has(child.name as string)) used.add(child.name as string);
    } else visit(child);
  });
  for (const statement of (program as { body: Node[] }).body) {
    const fn = statement.type === 'ExportDefaultDeclaration' ? statement.declaration as Node : statement;
    if (fn.type === 'FunctionDeclaration' && skip.has((fn.id as { name?: string } | null)?.name ?? '')) continue;
    visit({ type: 'Program', body: [statement] });
  }
  return [...used].sort();
}

/**
 * Source text binding `names` to the template's components, written as one line so a snippet's
 * line numbers stay its own (imports are hoisted; the `const` runs before the snippet's code).
 */
export function componentScopePrelude(names: readonly string[]): string {
  if (names.length === 0) return '';
  return `import { components as __folio_components__ } from '${COMPONENTS_MODULE}';const { ${names.join(', ')} } = __folio_components__;`;
}

/** True for a snippet file (`snippets/…` or `_snippets/…` at any depth), whose props are its variables. */
export function isSnippetPath(repoPath: string): boolean {
  return /(?:^|\/)_?snippets\//.test(repoPath);
}

/**
 * Names the content of an MDX snippet reads without defining them (`{word}`), which Mintlify
 * fills from the props the snippet is used with (`<MySnippet word="bananas" />`): references
 * inside `contentFunction` that are neither bound at the top level, nor declared anywhere in
 * it, nor JavaScript globals.
 */
export function snippetVariables(program: unknown, contentFunction: unknown): string[] {
  const bound = topLevelNames(program as { body: Node[] });
  const declared = new Set<string>(['props', 'arguments', 'undefined']);
  const used = new Set<string>();
  const visit = (node: Node): void => {
    if (node.type === 'VariableDeclarator') patternNames(node.id, declared);
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') {
      if (node.id) patternNames(node.id, declared);
      for (const param of node.params as Node[]) patternNames(param, declared);
    }
    if (node.type === 'CatchClause' && node.param) patternNames(node.param, declared);
    eachEsChild(node, (child, key) => {
      if (child.type === 'Identifier') {
        if (!isNameOnly(node, key)) used.add(child.name as string);
      } else visit(child);
    });
  };
  visit(contentFunction as Node);
  return [...used].filter((name) => !bound.has(name) && !declared.has(name) && !BUILT_IN_NAMES.has(name) && !(name in globalThis)).sort();
}

/**
 * Braces in prose are MDX expressions: `GET /{kickoff_id}/status` written outside code runs
 * `kickoff_id`, which names nothing, and the page would fail when it renders. Such an expression
 * is shown as written instead, braces included (`{kickoff_id}`), and the page gets a note
 * (warned about once per page: links/page-notes.ts). Decided from the syntax tree alone: an
 * expression of the page's content (in text or on its own line, not a prop value) qualifies when
 * it reads a name that nothing in the page binds (imports, declarations, parameters, at any
 * depth), that is not a JavaScript global nor a built-in component, and that is not `props`.
 * Everything else runs as before, so a page that really throws still fails with its place.
 * Snippets are left alone: their free names are the props they are used with.
 */
import type { Nodes, Parent, Root } from 'mdast';
import type { PageNote } from '../types.ts';
import { BUILT_IN_NAMES, isNameOnly, isSnippetPath, patternNames } from './component-scope.ts';
import { eachEsChild, eachEsNode, type EsNode } from './estree-walk.ts';
import { HOOKS } from './page-globals.ts';

/** Names every MDX page can read besides JavaScript's globals. */
const ALWAYS_BOUND: ReadonlySet<string> = new Set(['props', 'arguments', 'undefined']);

/** Every name the page binds anywhere: imports, declarations, function and catch parameters. */
function boundNames(tree: Root): Set<string> {
  const bound = new Set<string>();
  const visitCode = (estree: unknown) => eachEsNode(estree, (n) => {
    if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') patternNames(n.local, bound);
    else if (n.type === 'VariableDeclarator') patternNames(n.id, bound);
    else if ((n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration' || n.type === 'FunctionExpression' || n.type === 'ClassExpression') && n.id) patternNames(n.id, bound);
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') for (const p of n.params as unknown[]) patternNames(p, bound);
    else if (n.type === 'CatchClause' && n.param) patternNames(n.param, bound);
  });
  const visit = (node: Nodes): void => {
    const data = (node as { data?: { estree?: unknown } }).data;
    if (data?.estree) visitCode(data.estree);
    if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attr of node.attributes) {
        const value = attr.type === 'mdxJsxExpressionAttribute' ? attr : attr.value;
        if (value && typeof value === 'object' && value.data?.estree) visitCode(value.data.estree);
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return bound;
}

/** The names `estree` reads (references, not property keys nor `import.meta`), `typeof x` aside since it never throws. */
function readNames(estree: unknown): string[] {
  const names: string[] = [];
  const visit = (node: EsNode): void => {
    if (node.type === 'MetaProperty') return;
    if (node.type === 'UnaryExpression' && node.operator === 'typeof' && (node.argument as EsNode).type === 'Identifier') return;
    eachEsChild(node, (child, key) => {
      if (child.type === 'Identifier') {
        if (!isNameOnly(node, key)) names.push(child.name as string);
      } else visit(child);
    });
  };
  visit(estree as EsNode);
  return names;
}

const isUndefined = (name: string, bound: ReadonlySet<string>) =>
  !bound.has(name) && !ALWAYS_BOUND.has(name) && !HOOKS.has(name) && !BUILT_IN_NAMES.has(name) && !(name in globalThis);

/**
 * Replaces the page's expressions that read an undefined name by their source text; returns a
 * note for each. `file` is the repository path (snippets are left alone).
 */
export function literalizeUndefinedExpressions(tree: Root, file: string): PageNote[] {
  if (isSnippetPath(file)) return [];
  let bound: Set<string> | undefined;
  const notes: PageNote[] = [];
  const visit = (parent: Parent): void => {
    parent.children.forEach((child, index) => {
      if (child.type === 'mdxTextExpression' || child.type === 'mdxFlowExpression') {
        const estree = child.data?.estree;
        if (!estree) return;
        bound ??= boundNames(tree);
        const names = readNames(estree);
        if (!names.some((name) => isUndefined(name, bound!))) return;
        const text = { type: 'text' as const, value: `{${child.value}}`, position: child.position };
        parent.children[index] = (child.type === 'mdxTextExpression' ? text : { type: 'paragraph', children: [text], position: child.position }) as never;
        notes.push({ kind: 'expression', name: child.value.slice(0, 200), ...(child.position ? { line: child.position.start.line, column: child.position.start.column } : {}) });
      } else if ('children' in child) visit(child as Parent);
    });
  };
  visit(tree);
  return notes;
}

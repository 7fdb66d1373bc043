/**
 * Fails a page that uses a component nobody defines, before it runs: the message names the
 * component, its place, and the nearest known name (`did you mean`). Known names are the
 * template's components (`COMPONENT_NAMES`, with sub-components such as `Tree.Folder`), names
 * the page imports or declares (at any depth of its code, so a component defined inside an
 * expression counts), and the builder's own carriers. Lower-case names are HTML elements.
 * Elements inside `{expressions}` are checked too, with their own position.
 */
import type { Root } from 'mdast';
import type { Nodes } from 'mdast';
import { COMPONENT_NAMES } from '@folio/site-template/components/names.ts';
import { userError } from '../errors.ts';
import { isJsx } from './jsx-attributes.ts';
import { eachEsNode, type EsNode } from './estree-walk.ts';

/** The dotted name of an ESTree JSX element name (`Tree.Folder`), or undefined for namespaced names. */
function jsxName(name: EsNode): string | undefined {
  if (name.type === 'JSXIdentifier') return name.name as string;
  if (name.type === 'JSXMemberExpression') {
    const object = jsxName(name.object as EsNode);
    return object === undefined ? undefined : `${object}.${(name.property as EsNode).name as string}`;
  }
  return undefined;
}

/** Edit distance, case-insensitive (a wrong capital is the commonest slip). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length];
}

/** The known name nearest to `name`, when one is close enough to be a likely typo. */
export function suggestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** Throws an `mdx_component` user error for the first unknown component of the page; `internal` are the builder's own names. */
export function checkComponents(tree: Root, file: string, internal: readonly string[]): void {
  const declared = new Set<string>(internal);
  const bind = (pattern: unknown) => eachEsNode(pattern, (n) => {
    if (n.type === 'Identifier') declared.add(n.name as string);
  });
  const uses: Array<{ name: string; line?: number; column?: number }> = [];
  const visitCode = (estree: unknown) => eachEsNode(estree, (n) => {
    if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') bind(n.local);
    else if (n.type === 'VariableDeclarator') bind(n.id);
    else if (n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') bind(n.id);
    else if (n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') bind(n.params);
    else if (n.type === 'JSXOpeningElement') {
      const name = jsxName(n.name as EsNode);
      if (name !== undefined) uses.push({ name, line: n.loc?.start.line, column: n.loc ? n.loc.start.column + 1 : undefined });
    }
  });
  const visit = (node: Nodes): void => {
    if (isJsx(node) && node.name) uses.push({ name: node.name, line: node.position?.start.line, column: node.position?.start.column });
    const data = (node as { data?: { estree?: unknown } }).data;
    if (data?.estree) visitCode(data.estree);
    if (isJsx(node)) {
      for (const attr of node.attributes) {
        const value = attr.type === 'mdxJsxExpressionAttribute' ? attr : attr.value;
        if (value && typeof value === 'object' && value.data?.estree) visitCode(value.data.estree);
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  const known = new Set([...COMPONENT_NAMES, ...declared]);
  for (const use of uses) {
    const root = use.name.split('.')[0];
    if (!/^[A-Z]/.test(root) || known.has(use.name) || (declared.has(root))) continue;
    const suggestion = suggestName(use.name, [...COMPONENT_NAMES, ...[...declared].filter((n) => /^[A-Z]/.test(n) && !internal.includes(n))]);
    throw userError('mdx_component', `Unexpected component \`<${use.name}>\`: it is neither a built-in component nor imported or defined in the page${suggestion ? `; did you mean \`<${suggestion}>\`?` : ''}`, { file, line: use.line, column: use.column });
  }
}

/**
 * Finds the components a page uses that nobody defines, before it runs, with their place and the
 * nearest known name (unknown-components.ts renders them as plain containers). Known names are the
 * template's components (`COMPONENT_NAMES`, with sub-components such as `Tree.Folder`), names
 * the page imports or declares (at any depth of its code, so a component defined inside an
 * expression counts), and the builder's own carriers. Lower-case names are HTML elements.
 * Elements inside `{expressions}` are checked too, with their own position.
 */
import type { Root } from 'mdast';
import type { Nodes } from 'mdast';
import { COMPONENT_NAMES } from '@folio/site-template/components/names.ts';
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

/** A use of a component nobody defines: its name, place, a close known name, and the node naming it. */
export interface UnknownUse {
  name: string;
  line?: number;
  column?: number;
  suggestion?: string;
  /** The Markdown JSX element, or the ESTree `JSXElement` (inside `{expressions}` and ESM). */
  node: { mdast: Nodes } | { estree: EsNode };
}

/** Every use of a component the page neither imports nor defines and that is not built in, in source order; `internal` are the builder's own names. */
export function unknownComponents(tree: Root, internal: readonly string[]): UnknownUse[] {
  const declared = new Set<string>(internal);
  const bind = (pattern: unknown) => eachEsNode(pattern, (n) => {
    if (n.type === 'Identifier') declared.add(n.name as string);
  });
  const uses: Array<Omit<UnknownUse, 'suggestion'>> = [];
  const visitCode = (estree: unknown) => eachEsNode(estree, (n) => {
    if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') bind(n.local);
    else if (n.type === 'VariableDeclarator') bind(n.id);
    else if (n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') bind(n.id);
    else if (n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') bind(n.params);
    else if (n.type === 'JSXElement') {
      const opening = n.openingElement as EsNode;
      const name = jsxName(opening.name as EsNode);
      if (name !== undefined) uses.push({ name, line: opening.loc?.start.line, column: opening.loc ? opening.loc.start.column + 1 : undefined, node: { estree: n } });
    }
  });
  const visit = (node: Nodes): void => {
    if (isJsx(node) && node.name) uses.push({ name: node.name, line: node.position?.start.line, column: node.position?.start.column, node: { mdast: node } });
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
  const candidates = [...COMPONENT_NAMES, ...[...declared].filter((n) => /^[A-Z]/.test(n) && !internal.includes(n))];
  return uses.filter((use) => {
    const root = use.name.split('.')[0];
    return /^[A-Z]/.test(root) && !known.has(use.name) && !declared.has(root);
  }).map((use) => {
    const suggestion = suggestName(use.name, candidates);
    return suggestion ? { ...use, suggestion } : use;
  });
}

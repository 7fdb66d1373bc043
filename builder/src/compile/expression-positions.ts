/**
 * Gives a page's runtime errors the position of the expression that threw. Each `{expression}`
 * of the page (in text, in flow, and as a prop value) runs inside a small wrapper that tags an
 * error thrown from it with the expression's line and column (`folioAt`), innermost first;
 * errors-to-failure.ts reads the tag. The cost is one closure call per expression. Components the
 * page defines in its ESM get the same wrappers inside their functions (render-positions.ts).
 */
import type { Nodes, Root } from 'mdast';
import { parseAst } from 'vite';
import { isJsx } from './jsx-attributes.ts';
import { renderTargets } from './render-positions.ts';

interface EsNode { type: string; [key: string]: unknown }

const WRAPPER = '((f, l, c) => { try { return f() } catch (e) { if (e !== null && typeof e === "object" && e.folioAt === undefined) try { e.folioAt = [l, c] } catch {} throw e } })(() => 0, 1, 1)';

function stripPositions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(stripPositions);
  if (typeof node !== 'object' || node === null) return;
  for (const key of ['start', 'end', 'loc', 'range', 'raw']) delete (node as Record<string, unknown>)[key];
  for (const value of Object.values(node)) stripPositions(value);
}

let template: EsNode | undefined;

function wrapperCall(): EsNode {
  if (!template) {
    const program = parseAst(WRAPPER) as unknown as { body: Array<{ expression: EsNode }> };
    template = program.body[0].expression;
    stripPositions(template);
  }
  return structuredClone(template);
}

/** Wraps the expression of an MDX expression's program (`{…}`) in place; empty ones (comments) are left alone. */
function wrap(estree: unknown, line: number | undefined, column: number | undefined): void {
  const statement = (estree as { body?: EsNode[] } | undefined)?.body?.[0];
  if (!statement || statement.type !== 'ExpressionStatement' || line === undefined || column === undefined) return;
  statement.expression = positioned(statement.expression as EsNode, line, column);
}

/** `expression` run inside the wrapper that tags its errors with `line` and `column`. */
function positioned(expression: EsNode, line: number, column: number): EsNode {
  const call = wrapperCall();
  const args = call.arguments as EsNode[];
  (args[0] as EsNode).body = expression;
  args[1] = { type: 'Literal', value: line };
  args[2] = { type: 'Literal', value: column };
  return call;
}

/** Wraps the code inside the functions of the page's own ESM (its components: render-positions.ts). */
function wrapFunctions(estree: unknown): void {
  for (const { parent, key, node } of renderTargets(estree)) {
    const at = (node as { loc?: { start: { line: number; column: number } } }).loc?.start;
    if (at) parent[key] = positioned(node, at.line, at.column + 1);
  }
}

/** Wraps every expression of the page, and the code of the components it defines (see the module comment). */
export function tagExpressionPositions(tree: Root): void {
  const visit = (node: Nodes): void => {
    if (node.type === 'mdxjsEsm') wrapFunctions(node.data?.estree);
    if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') wrap(node.data?.estree, node.position?.start.line, node.position?.start.column);
    if (isJsx(node)) {
      for (const attr of node.attributes) {
        if (attr.type !== 'mdxJsxAttribute' || typeof attr.value !== 'object' || attr.value === null) continue;
        const at = attr.position ?? node.position;
        wrap(attr.value.data?.estree, at?.start.line, at?.start.column);
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
}

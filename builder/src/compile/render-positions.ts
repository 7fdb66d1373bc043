/**
 * Gives errors thrown while a component renders the position of the code that threw, in the
 * page's own ESM (`export const Boom = () => …`) and in JavaScript snippets (`.jsx`/`.js`).
 * A component runs after the page's expressions have returned (Preact calls it while rendering),
 * so expression-positions.ts cannot see it; and pages are compiled without source maps (they
 * cost ~7% of compile CPU for every page, to serve the rare page that throws).
 *
 * Inside every function, each statement's expression (a `return` value, an expression
 * statement, a declaration's initialiser), a concise arrow's body and each `{expression}` of
 * JSX runs inside a wrapper that tags an error passing through it with its line and column
 * (innermost first, as for page expressions); errors-to-failure.ts reads the tag. Expressions
 * holding `await` or `yield` are left as they are (a closure would change their meaning).
 */
import type { EsNode } from './estree-walk.ts';

/** One expression to wrap: where it sits (`parent[key]`) and its place in the source. */
export interface RenderTarget { parent: Record<string, unknown>; key: string; node: EsNode }

const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration']);

function suspends(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(suspends);
  if (typeof node !== 'object' || node === null) return false;
  const n = node as EsNode;
  if (n.type === 'AwaitExpression' || n.type === 'YieldExpression') return true;
  return Object.entries(n).some(([k, v]) => k !== 'loc' && k !== 'range' && typeof v === 'object' && v !== null && suspends(v));
}

/** The expressions of `program` to wrap, outer ones before the ones they contain. */
export function renderTargets(program: unknown): RenderTarget[] {
  const out: RenderTarget[] = [];
  const take = (parent: EsNode, key: string) => {
    const node = parent[key] as EsNode | null | undefined;
    if (node && typeof node === 'object' && node.type !== 'JSXEmptyExpression' && !suspends(node)) out.push({ parent, key, node });
  };
  const visit = (node: unknown, inFunction: boolean): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, inFunction));
    if (typeof node !== 'object' || node === null || typeof (node as EsNode).type !== 'string') return;
    const n = node as EsNode;
    if (inFunction) {
      if (n.type === 'ReturnStatement') take(n, 'argument');
      else if (n.type === 'ExpressionStatement' && n.directive === undefined) take(n, 'expression');
      else if (n.type === 'VariableDeclarator') take(n, 'init');
      else if (n.type === 'JSXExpressionContainer') take(n, 'expression');
    }
    if (n.type === 'ArrowFunctionExpression' && (n.body as EsNode).type !== 'BlockStatement') take(n, 'body');
    const inner = inFunction || FUNCTIONS.has(n.type);
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'loc' && key !== 'range' && key !== 'position' && typeof value === 'object' && value !== null) visit(value, inner);
    }
  };
  visit(program, false);
  return out;
}

/** The helper a wrapped JavaScript module calls (a hoisted declaration, appended to the module). */
export const POSITION_HELPER = 'function __folioAt(f, l, c, p) { try { return f() } catch (e) { if (e !== null && typeof e === "object" && e.folioAt === undefined) try { e.folioAt = [l, c, p] } catch {} throw e } }';

/**
 * `code` with the render targets of its parsed `program` (offsets in `start`/`end`) wrapped in
 * `__folioAt(() => (…), line, column, file)`, lines unchanged, and the helper appended; `code`
 * itself when nothing needs wrapping.
 */
export function wrapSource(code: string, program: unknown, file: string): string {
  const targets = renderTargets(program).filter((t) => typeof t.node.start === 'number' && typeof t.node.end === 'number');
  if (targets.length === 0) return code;
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const place = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };
  // Openings and closings by offset: at one offset, closings come first (inner before outer),
  // then openings (outer before inner), so nested wrappers stay balanced.
  const events: Array<{ at: number; order: number; text: string }> = [];
  for (const t of targets) {
    const start = t.node.start as number;
    const end = t.node.end as number;
    const { line, column } = place(start);
    events.push({ at: start, order: 1e9 - (end - start), text: '__folioAt(() => (' });
    events.push({ at: end, order: -(1e9 - (end - start)), text: `), ${line}, ${column}, ${JSON.stringify(file)})` });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  let out = '';
  let last = 0;
  for (const e of events) {
    out += code.slice(last, e.at) + e.text;
    last = e.at;
  }
  return `${out}${code.slice(last)}\n${POSITION_HELPER}\n`;
}

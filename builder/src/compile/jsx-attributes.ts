/**
 * Reading props of MDX JSX elements in the syntax tree. Only literal string props count as
 * values: `for="agents"` has a value, `for={x}` does not (it is only known when the page runs).
 */
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { Nodes } from 'mdast';

/** A JSX element in flow (block) or text (inline) position. */
export type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

/** True when `node` is a JSX element (optionally with the given name). */
export function isJsx(node: Nodes, name?: string): node is JsxElement {
  return (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && (name === undefined || node.name === name);
}

/** A prop as written: absent, a literal string, `true` for a bare prop, or an expression. */
export type PropValue = { kind: 'absent' } | { kind: 'string'; value: string } | { kind: 'bare' } | { kind: 'expression'; source: string };

/** Reads the prop `name` of `node` (the last occurrence wins, as in JSX). */
export function readProp(node: JsxElement, name: string): PropValue {
  let found: PropValue = { kind: 'absent' };
  for (const attr of node.attributes) {
    if (attr.type !== 'mdxJsxAttribute' || attr.name !== name) continue;
    if (attr.value === null || attr.value === undefined) found = { kind: 'bare' };
    else if (typeof attr.value === 'string') found = { kind: 'string', value: attr.value };
    else found = { kind: 'expression', source: attr.value.value };
  }
  return found;
}

/** The literal string value of a prop, or undefined when absent or not a literal string. */
export function stringProp(node: JsxElement, name: string): string | undefined {
  const prop = readProp(node, name);
  return prop.kind === 'string' ? prop.value : undefined;
}

/** Sets (or replaces) a literal string prop. */
export function setStringProp(node: JsxElement, name: string, value: string): void {
  node.attributes = node.attributes.filter((a) => a.type !== 'mdxJsxAttribute' || a.name !== name);
  node.attributes.push({ type: 'mdxJsxAttribute', name, value });
}

interface EsNode { type: string; value?: unknown; children?: EsNode[]; expression?: EsNode; body?: EsNode[] }

function jsxText(node: EsNode | undefined): string {
  if (!node) return '';
  if (node.type === 'JSXText') return String(node.value);
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'JSXExpressionContainer' || node.type === 'ExpressionStatement') return jsxText(node.expression);
  if (node.type === 'JSXElement' || node.type === 'JSXFragment') return (node.children ?? []).map(jsxText).join('');
  return '';
}

/**
 * The text of a prop: a literal string, or the text of JSX written as its value
 * (`title={<>Install <code>acme</code></>}` gives `Install acme`); undefined otherwise.
 */
export function textProp(node: JsxElement, name: string): string | undefined {
  const literal = stringProp(node, name);
  if (literal !== undefined) return literal;
  let found: string | undefined;
  for (const attr of node.attributes) {
    if (attr.type !== 'mdxJsxAttribute' || attr.name !== name || typeof attr.value !== 'object' || attr.value === null) continue;
    const program = attr.value.data?.estree as unknown as { body?: EsNode[] } | undefined;
    const text = jsxText(program?.body?.[0]).replace(/\s+/g, ' ').trim();
    found = text === '' ? undefined : text;
  }
  return found;
}

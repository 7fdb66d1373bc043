/**
 * `<Visibility for="humans|agents">` (spec 2.12). In HTML, humans content renders normally inside
 * `<div data-visibility="humans">` and agents content is present but hidden
 * (`<div data-visibility="agents" style="display:none">`); inline uses become `<span>`. The
 * Markdown export strips humans content and keeps agents content (see markdown-export.ts).
 * A missing, expression or unknown `for` is an `mdx_visibility` user error at the element.
 */
import type { Root } from 'mdast';
import type {} from 'mdast-util-mdx';
import { userError } from '../errors.ts';
import { isJsx, readProp, type JsxElement } from './jsx-attributes.ts';

/** The audience of a Visibility element. */
export type Audience = 'humans' | 'agents';

/** Reads and checks the `for` prop of a `<Visibility>` element. */
export function visibilityOf(node: JsxElement, file: string): Audience {
  const prop = readProp(node, 'for');
  if (prop.kind === 'string' && (prop.value === 'humans' || prop.value === 'agents')) return prop.value;
  const got = prop.kind === 'absent' ? '<Visibility> without `for`'
    : prop.kind === 'string' ? `<Visibility for="${prop.value}">`
      : prop.kind === 'bare' ? '<Visibility for>'
        : `<Visibility for={${prop.source}}>`;
  throw userError('mdx_visibility', `Unexpected ${got}; expected for="humans" or for="agents"`, {
    file, line: node.position?.start.line, column: node.position?.start.column,
  });
}

function each(nodes: unknown[], fn: (node: JsxElement) => void): void {
  for (const node of nodes as Array<{ children?: unknown[] }>) {
    if (isJsx(node as JsxElement, 'Visibility')) fn(node as JsxElement);
    if (Array.isArray(node.children)) each(node.children, fn);
  }
}

/** Throws the first invalid `<Visibility>` of the page. */
export function checkVisibility(tree: Root, file: string): void {
  each(tree.children, (node) => void visibilityOf(node, file));
}

/** Turns every (already checked) `<Visibility>` into its HTML element. */
export function applyVisibility(tree: Root, file: string): void {
  each(tree.children, (node) => {
    const audience = visibilityOf(node, file);
    node.name = node.type === 'mdxJsxFlowElement' ? 'div' : 'span';
    node.attributes = [{ type: 'mdxJsxAttribute', name: 'data-visibility', value: audience }];
    if (audience === 'agents') node.attributes.push({ type: 'mdxJsxAttribute', name: 'style', value: 'display:none' });
  });
}

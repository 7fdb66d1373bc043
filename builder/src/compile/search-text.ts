/**
 * Plain text of a page as humans see it, for search and the pages API: one line per block
 * (paragraph, heading, table cell, code block), whitespace collapsed inside a block. Agents-only
 * content, frontmatter, imports/exports and `{expressions}` are left out.
 */
import type { Nodes, Root } from 'mdast';
import type {} from 'mdast-util-mdx';
import { componentSearchText } from './component-export.ts';
import { isJsx, stringProp } from './jsx-attributes.ts';

const BLOCKS = new Set(['paragraph', 'heading', 'tableCell', 'code']);
const SKIP = new Set(['yaml', 'mdxjsEsm', 'mdxFlowExpression', 'mdxTextExpression', 'html']);

function hidden(node: Nodes): boolean {
  return SKIP.has(node.type) || (isJsx(node, 'Visibility') && stringProp(node, 'for') === 'agents');
}

/** Plain text of one node (hidden parts left out), without block separators. */
export function plainText(node: Nodes): string {
  if (hidden(node)) return '';
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return ' ';
  return 'children' in node ? node.children.map((c) => plainText(c as Nodes)).join('') : '';
}

/** The humans-view plain text of a parsed page; `snippets` holds the text of imported snippet components by name. */
export function searchText(tree: Root, snippets: ReadonlyMap<string, string> = new Map()): string {
  const out: string[] = [];
  const visit = (node: Nodes): void => {
    if (hidden(node)) return;
    if (isJsx(node) && node.name && snippets.has(node.name)) {
      if (snippets.get(node.name)) out.push(snippets.get(node.name)!);
      return;
    }
    const props = isJsx(node) ? componentSearchText(node) : undefined;
    if (props) out.push(props.replace(/\s+/g, ' ').trim());
    if (BLOCKS.has(node.type)) {
      const text = plainText(node).replace(/\s+/g, ' ').trim();
      if (text !== '') out.push(text);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return out.join('\n');
}

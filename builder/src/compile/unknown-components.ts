/**
 * A component nobody defines (`<Critical>` in crewAI's pages: neither built in, nor imported, nor
 * declared) does not fail its page, since a repository Mintlify publishes must build unchanged:
 * its content is shown in a plain container, `<div data-component="Critical">` (a `<span>` in a
 * line of text), its props dropped, and the build warns once per name with the pages using it
 * (links/page-notes.ts). Elements inside `{expressions}` and the page's own components get the
 * same container. Decided from the syntax tree, so nothing runs that would not have run anyway.
 */
import type { Nodes } from 'mdast';
import type { PageNote } from '../types.ts';
import type { UnknownUse } from './component-check.ts';
import type { EsNode } from './estree-walk.ts';

/** The attribute naming the component a plain container stands for. */
export const COMPONENT_ATTRIBUTE = 'data-component';

function containerAttribute(name: string): EsNode {
  return { type: 'JSXAttribute', name: { type: 'JSXIdentifier', name: COMPONENT_ATTRIBUTE }, value: { type: 'Literal', value: name } };
}

/** Turns one ESTree `JSXElement` into a `<div data-component="…">` around its children. */
function replaceEstree(element: EsNode, name: string): void {
  const opening = element.openingElement as EsNode;
  opening.name = { type: 'JSXIdentifier', name: 'div' };
  opening.attributes = [containerAttribute(name)];
  const closing = element.closingElement as EsNode | null;
  if (closing) closing.name = { type: 'JSXIdentifier', name: 'div' };
}

/** Renders every unknown use as a plain container around its content; returns the page's notes. */
export function neutralizeUnknownComponents(uses: readonly UnknownUse[]): PageNote[] {
  for (const use of uses) {
    if ('estree' in use.node) {
      replaceEstree(use.node.estree, use.name);
      continue;
    }
    const element = use.node.mdast as Nodes & { name: string; attributes: unknown[] };
    element.name = element.type === 'mdxJsxTextElement' ? 'span' : 'div';
    element.attributes = [{ type: 'mdxJsxAttribute', name: COMPONENT_ATTRIBUTE, value: use.name }];
  }
  return uses.map(({ name, line, column, suggestion }) => ({
    kind: 'component' as const, name,
    ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}), ...(suggestion ? { suggestion } : {}),
  }));
}

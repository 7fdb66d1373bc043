/**
 * Whether a page can skip JavaScript altogether (static-page.ts), decided from its syntax tree
 * alone, never by running anything. A page qualifies when it holds only Markdown, frontmatter
 * and components of the page catalogue (`pageComponents`: the template's, the builder's
 * carriers) with literal props: no `import`/`export`, no `{expression}`, no `attr={expression}`
 * or `{...spread}`, no fragment, no name the catalogue does not have (sub-components such as
 * `Tree.Folder` are looked up as MDX looks them up). Lowercase tags (`<div>`, `<img>`) qualify:
 * they render as written on both paths. `.md` pages have no JSX and always qualify.
 */
import type { Nodes, Root } from 'mdast';

/** A JSX name as the static renderer can look it up: `Name`, `Name.Sub`, or a lowercase tag. */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*$/;

/**
 * The component `name` (`Tree.Folder` read as MDX reads it) in `components`, or undefined. Only
 * functions count: `Tree.prototype` or `Tree.name` are properties, not components, and a page
 * naming one is left to the MDX path.
 */
export function catalogueComponent(components: Record<string, unknown>, name: string): unknown {
  const [root, ...rest] = name.split('.');
  let value: unknown = Object.hasOwn(components, root) ? components[root] : undefined;
  for (const part of rest) {
    if ((typeof value !== 'function' && typeof value !== 'object') || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'function' ? value : undefined;
}

/** True when the JSX name renders as an HTML tag of that name (starts with a lowercase letter). */
export const isTagName = (name: string): boolean => /^[a-z]/.test(name);

/** True when every node of `tree` can be rendered without running page code. */
export function isStaticTree(tree: Root, components: Record<string, unknown>): boolean {
  const visit = (node: Nodes): boolean => {
    switch (node.type) {
      case 'mdxjsEsm':
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        return false;
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        const name = node.name;
        if (!name || !PLAIN_NAME.test(name)) return false;
        if (isTagName(name) ? name.includes('.') : catalogueComponent(components, name) === undefined) return false;
        if (!node.attributes.every((attr) => attr.type === 'mdxJsxAttribute' && (attr.value === null || attr.value === undefined || typeof attr.value === 'string'))) return false;
        break;
      }
      default:
        break;
    }
    return !('children' in node) || (node.children as Nodes[]).every(visit);
  };
  return visit(tree);
}

/**
 * The static path: a page that needs no JavaScript of its own (static-eligibility.ts) is
 * rendered straight from its syntax tree, without Vite, recma, module generation or
 * evaluation. It goes through MDX's own processor (`createProcessor` with the options every page
 * compiles with, so remark-folio, MDX's unravelling and remark-rehype run exactly as on the MDX
 * path), stopped once the tree is hast; hast-util-to-jsx-runtime (by MDX's authors, sharing its
 * property handling with MDX's hast-util-to-estree) turns that into Preact elements with the
 * page's components, and `renderMdx` renders them as it renders a compiled module.
 *
 * Names are resolved as MDX's compiled code resolves them: a capitalised name is a component of
 * the catalogue (`Tree.Folder` a property of `Tree`); a lowercase tag the author wrote as JSX is
 * that HTML tag as written; every other lowercase element (from Markdown, or added by the
 * remark plugin) takes the catalogue's override of that tag when there is one.
 */
import { createProcessor, type ProcessorOptions } from '@mdx-js/mdx';
import type { Root as HastRoot, Nodes as HastNodes } from 'hast';
import type { Root } from 'mdast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { Fragment, jsx, jsxs } from 'preact/jsx-runtime';
import { VFile } from 'vfile';
import type { FolioRemarkEnv } from './remark-folio.ts';
import { mdxOptions } from './mdx-options.ts';
import type { MdxContent } from './render.ts';
import { catalogueComponent, isStaticTree, isTagName } from './static-eligibility.ts';

/** Thrown by the last rehype step to stop MDX's pipeline at hast, carrying the tree. */
class HastReached {
  readonly tree: HastRoot;
  constructor(tree: HastRoot) {
    this.tree = tree;
  }
}

function stopAtHast() {
  return (tree: HastRoot) => {
    throw new HastReached(tree);
  };
}

/** Prefix of the names the renderer looks up in a page's own component map (never a JSX identifier). */
const ALIAS = '\u0000';

/**
 * Renames the tree's JSX elements to keys of the returned map, so hast-util-to-jsx-runtime looks
 * every one up as MDX's compiled code would (it only looks up literal names by itself).
 */
function resolveNames(tree: HastRoot, components: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = { ...components };
  const visit = (node: HastNodes): void => {
    if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      const name = node.name ?? '';
      const explicit = (node.data as { _mdxExplicitJsx?: boolean } | undefined)?._mdxExplicitJsx === true;
      if (!isTagName(name)) {
        own[ALIAS + name] = catalogueComponent(components, name);
        node.name = ALIAS + name;
      } else if (explicit) {
        own[ALIAS + name] = name;
        node.name = ALIAS + name;
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as HastNodes);
  };
  visit(tree);
  return own;
}

/** One page's result on the static path: its content, or `ok: false` (no error: the MDX path decides). */
export type StaticResult = { ok: true; Content: MdxContent } | { ok: false; error?: undefined };

/** Renders pages that qualify without JavaScript; `env` is the remark plugin's environment. */
export class StaticPages {
  private readonly processors: Record<'md' | 'mdx', ReturnType<typeof createProcessor>>;
  private readonly components: Record<string, unknown>;

  constructor(env: FolioRemarkEnv, components: Record<string, unknown>) {
    const options = (format: 'md' | 'mdx'): ProcessorOptions => ({ ...mdxOptions(env), format, rehypePlugins: [stopAtHast] });
    this.processors = { md: createProcessor(options('md')), mdx: createProcessor(options('mdx')) };
    this.components = components;
  }

  /**
   * The page's content when it qualifies and its tree compiles; `{ ok: false }` otherwise (the
   * MDX path then compiles it, and reports any error as it always has). `id` is its module id.
   */
  async render(id: string, source: string): Promise<StaticResult> {
    const processor = this.processors[/\.md$/.test(id) ? 'md' : 'mdx'];
    const file = new VFile({ path: id, value: source });
    let tree: Root;
    try {
      tree = processor.parse(file) as Root;
    } catch {
      return { ok: false };
    }
    if (!isStaticTree(tree, this.components)) return { ok: false };
    let hast: HastRoot;
    try {
      // The processor types its result as the program MDX would make; it stops at hast first.
      await processor.run(tree as never, file);
      return { ok: false };
    } catch (stop) {
      if (!(stop instanceof HastReached)) return { ok: false };
      hast = stop.tree;
    }
    try {
      const components = resolveNames(hast, this.components);
      const element = toJsxRuntime(hast, { Fragment, jsx, jsxs, components: components as never, elementAttributeNameCase: 'html' });
      return { ok: true, Content: () => element };
    } catch {
      return { ok: false };
    }
  }
}

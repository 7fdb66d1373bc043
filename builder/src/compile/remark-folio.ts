/**
 * The remark plugin that turns a parsed page into what the platform needs, in one pass over the
 * syntax tree (MDX then compiles the tree to a module):
 * 1. frontmatter is read and checked;
 * 2. imports are checked (repository files only) and must exist; Markdown/MDX snippets are
 *    parsed so the page's export and search text can include them;
 * 3. `<Visibility>` props are checked; an expression in prose naming nothing is shown as written
 *    (undefined-names.ts), and a component nobody defines becomes a plain container
 *    (unknown-components.ts), each noted for the build's warnings;
 * 4. the Markdown export and search text are taken from the untouched tree; then expressions
 *    are wrapped so runtime errors carry their position (expression-positions.ts);
 * 5. headings get ids and anchors, the TOC and `<Update>` facts are collected;
 * 6. `<Visibility>` becomes its HTML element;
 * 7. ```mermaid fences become `<Mermaid>` (drawn in the reader's browser);
 * 8. other code fences are highlighted with the shared highlighter and replaced by one raw-HTML
 *    carrier element each (`<CodeHtml k="…"/>`, the HTML kept by `putCode`), not thousands of
 *    JSX nodes.
 * The facts are handed to `report` keyed by the file's module id.
 */
import { posix } from 'node:path';
import type { Code, Parent, Root } from 'mdast';
import type {} from 'mdast-util-mdx';
import type { VFile } from 'vfile';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { TocEntry } from '@folio/site-template/shared/types.ts';
import type { PageLink, PageNote } from '../types.ts';
import { userError } from '../errors.ts';
import { CodeMetaError, parseCodeMeta } from './code-meta.ts';
import { unknownComponents } from './component-check.ts';
import { tagExpressionPositions } from './expression-positions.ts';
import { renderCodeBlock } from './code-block.ts';
import { readFrontmatter, type PageFrontmatter } from './frontmatter.ts';
import type { SharedHighlighter } from './highlighter.ts';
import { checkImports } from './imports.ts';
import { collectLinks } from './page-links.ts';
import { expandSnippetElements } from './snippet-element.ts';
import { applyIslands } from './islands.ts';
import { markdownExport, snippetExport } from './markdown-export.ts';
import { applyOutline, MARKER_COMPONENT, type UpdateFacts } from './outline.ts';
import { plainText, searchText } from './search-text.ts';
import { applyVisibility, checkVisibility } from './visibility.ts';
import { literalizeUndefinedExpressions } from './undefined-names.ts';
import { neutralizeUnknownComponents } from './unknown-components.ts';

/** Name of the internal component that renders a code block's finished HTML. */
export const CODE_COMPONENT = 'CodeHtml';

/** Everything learnt about a page while compiling it. */
export interface PageFacts {
  frontmatter: PageFrontmatter;
  title: string;
  markdown: string;
  searchText: string;
  toc: TocEntry[];
  updates: UpdateFacts[];
  /** Links written in the page's source, with positions. */
  links: PageLink[];
  /** Source of the page's client module when it renders hook components (islands.ts). */
  islands?: string;
  /** Unknown components and expressions naming nothing, shown plainly (empty when none). */
  notes: PageNote[];
}

/** How the plugin reaches the outside world. */
export interface FolioRemarkEnv {
  highlighter: SharedHighlighter;
  /** Repository path (e.g. `docs/a.mdx`) of a module id (the vfile path). */
  repoPath(id: string): string;
  /** Text of an imported repository file, undefined when it does not exist. */
  read(repoPath: string): Promise<string | undefined>;
  /** Receives the facts of each compiled file. */
  report(id: string, facts: PageFacts): void;
  /** Keeps a highlighted code block's HTML; returns the key its carrier element names. */
  putCode(html: string): string;
}

function codeNodes(tree: Root): Array<{ node: Code; parent: Parent; index: number }> {
  const found: Array<{ node: Code; parent: Parent; index: number }> = [];
  const visit = (parent: Parent): void => {
    parent.children.forEach((child, index) => {
      if (child.type === 'code') found.push({ node: child, parent, index });
      else if ('children' in child) visit(child as Parent);
    });
  };
  visit(tree);
  return found;
}

const mdxParser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter, ['yaml']).use(remarkGfm);
const mdParser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);

/**
 * The syntax tree of a Markdown/MDX snippet for the page's export and search text; undefined
 * for other files, and for broken snippets (their own compile reports the error with its place).
 */
function parseSnippet(text: string, path: string): Root | undefined {
  const parser = path.endsWith('.mdx') ? mdxParser : path.endsWith('.md') ? mdParser : undefined;
  try {
    return parser?.parse(text);
  } catch {
    return undefined;
  }
}

/** `props.components` as the estree MDX keeps beside an attribute expression. */
const PROPS_COMPONENTS = {
  type: 'Program', sourceType: 'module', body: [{
    type: 'ExpressionStatement',
    expression: { type: 'MemberExpression', object: { type: 'Identifier', name: 'props' }, property: { type: 'Identifier', name: 'components' }, computed: false, optional: false },
  }],
};

/**
 * MDX does not hand its components to the content it imports, so a snippet using `<Note>`
 * would find it undefined. Every use of an imported Markdown/MDX snippet gets
 * `components={props.components}`, passing the page's components down at any depth.
 */
function passComponentsToSnippets(tree: Root, snippetNames: string[]): void {
  if (snippetNames.length === 0) return;
  const names = new Set(snippetNames);
  const visit = (node: Parent): void => {
    for (const child of node.children) {
      const el = child as unknown as { type: string; name?: string; attributes?: Array<{ type: string; name?: string }> };
      if ((el.type === 'mdxJsxFlowElement' || el.type === 'mdxJsxTextElement') && el.name && names.has(el.name)
        && !el.attributes?.some((a) => a.type === 'mdxJsxAttribute' && a.name === 'components')) {
        el.attributes?.push({
          type: 'mdxJsxAttribute', name: 'components',
          value: { type: 'mdxJsxAttributeValueExpression', value: 'props.components', data: { estree: structuredClone(PROPS_COMPONENTS) } },
        } as never);
      }
      if ('children' in child) visit(child as Parent);
    }
  };
  visit(tree);
}

/** The remark plugin (use as `[remarkFolio, env]`). */
export function remarkFolio(env: FolioRemarkEnv) {
  return async function transform(tree: Root, vfile: VFile): Promise<void> {
    const id = vfile.path;
    const file = env.repoPath(id);
    const frontmatter = readFrontmatter(tree, file);
    const snippetMarkdown = new Map<string, string>();
    const snippetText = new Map<string, string>();
    // `<Snippet file>` becomes an import first, so it is read like any imported snippet.
    await expandSnippetElements(tree, file, env.read);
    for (const imported of checkImports(tree, file)) {
      const text = await env.read(imported.path);
      if (text === undefined) {
        throw userError('mdx_import', `Unexpected import of \`${imported.spec}\`: ${imported.path} does not exist in the repository`, { file, line: imported.line, column: imported.column });
      }
      const snippet = imported.defaultName ? parseSnippet(text, imported.path) : undefined;
      if (snippet && imported.defaultName) {
        snippetMarkdown.set(imported.defaultName, snippetExport(snippet, text, imported.path));
        snippetText.set(imported.defaultName, searchText(snippet));
      }
    }
    passComponentsToSnippets(tree, [...snippetMarkdown.keys()]);
    checkVisibility(tree, file);
    const expressionNotes = literalizeUndefinedExpressions(tree, file);
    const unknown = unknownComponents(tree, [CODE_COMPONENT, MARKER_COMPONENT]);
    const firstH1 = tree.children.find((n) => n.type === 'heading' && n.depth === 1);
    const headingTitle = firstH1 ? plainText(firstH1).trim() : '';
    const title = frontmatter.title ?? (headingTitle || posix.basename(file).replace(/\.(mdx|md)$/, ''));
    // Frontmatter `keywords` are searched, not shown (Mintlify's internal search keywords).
    const text = [searchText(tree, snippetText), frontmatter.keywords?.join(' ')].filter(Boolean).join('\n');
    // Before any rewriting: positions are the source's, and anchors the outline adds are not links.
    const links = collectLinks(tree);
    const markdown = markdownExport(tree, String(vfile.value), title, frontmatter.description, file, snippetMarkdown);
    // One note per component name, and at most a hundred expressions: enough for the warnings.
    const notes = [...neutralizeUnknownComponents(unknown).filter((n, i, all) => all.findIndex((m) => m.name === n.name) === i), ...expressionNotes.slice(0, 100)];
    // After the export and search text, which read components as written; before the positions,
    // so the component an island names is tagged like any other prop.
    const islands = await applyIslands(tree, String(vfile.value), file, env.read);
    // After the export and search text, which read expressions as written.
    tagExpressionPositions(tree);
    const structure = applyOutline(tree, file);
    applyVisibility(tree, file);

    const codes = codeNodes(tree).filter(({ node, parent, index }) => {
      if (node.lang !== 'mermaid') return true;
      parent.children[index] = { type: 'mdxJsxFlowElement', name: 'Mermaid', attributes: [{ type: 'mdxJsxAttribute', name: 'chart', value: node.value }], children: [] } as never;
      return false;
    });
    const langs = await Promise.all(codes.map(({ node }) => env.highlighter.ensureLanguage(node.lang ?? '')));
    codes.forEach(({ node, parent, index }, i) => {
      let meta;
      try {
        meta = parseCodeMeta(node.meta);
      } catch (err) {
        if (!(err instanceof CodeMetaError)) throw err;
        throw userError('mdx_code_meta', err.message, { file, line: node.position?.start.line, column: node.position?.start.column });
      }
      const html = renderCodeBlock(env.highlighter, node.value, node.lang ?? '', langs[i], meta);
      parent.children[index] = { type: 'mdxJsxFlowElement', name: CODE_COMPONENT, attributes: [{ type: 'mdxJsxAttribute', name: 'k', value: env.putCode(html) }], children: [] } as never;
    });
    env.report(id, { frontmatter, title, markdown, searchText: text, toc: structure.toc, updates: structure.updates, links, notes, ...(islands ? { islands } : {}) });
  };
}

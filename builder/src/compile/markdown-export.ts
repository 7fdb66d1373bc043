/**
 * The per-page Markdown export (`CompiledPage.markdown`): a clean Markdown document for LLMs
 * and the raw-Markdown route, built from the page's syntax tree (never from its HTML).
 *
 * Rules, in document order:
 * - The document starts with `# Title`, then the description as its own paragraph when the page
 *   has one. A leading `# …` heading in the body with the same text as the title is dropped so
 *   the title does not appear twice.
 * - Frontmatter, `import`/`export` statements and `{expressions}` are removed (their values are
 *   only known when the page runs).
 * - `<Visibility for="humans">` is removed with its content; `<Visibility for="agents">` is
 *   replaced by its content.
 * - `Callout`, `Note`, `Tip`, `Warning`, `Info`, `Check`, `Danger` become block quotes; all but `Callout`
 *   start with a bold label (`**Note:** …`), a `Callout` with a `title` starts with it in bold
 *   (joined to the callout's own first paragraph, not to a nested component's first line).
 * - `Tab`, `Accordion`, `View` and `Update` become headed sections: a heading one level below the last
 *   heading before them (level 2 when there is none, at most 6) with their `title` (`label` for
 *   `Update`, followed by its date in italics and its description), then their content, whose
 *   own headings (a snippet's included) are moved down to fall under that heading.
 * - `Steps` becomes an ordered list; each `Step` is an item starting with its bold `title`.
 * - `Card` becomes its bold title (linked when it has `href`) followed by its content.
 * - `ParamField`/`ResponseField` become a bold code name with its facts in brackets
 *   (`` **`limit`** (query, number, required) ``), `Tree`/`FileTree` a nested list (folders end
 *   in `/`), `Color` a list of `name: value`, `GitHub.Repo` a link, `Mermaid` a ```mermaid
 *   fence, `Tooltip` its text with the tip in brackets, `PreviewButton`/`Tile` links, `Prompt` a
 *   block quote under its description, `Frame src` an image (component-export.ts).
 * - `<img>`, `<a>` and `<br>` written as JSX become Markdown images, links and line breaks; an
 *   `<img className="dark-only">` (the dark half of a light/dark pair) is left out.
 * - Every other component (`Tabs`, `CardGroup`, `CodeGroup`, `Columns`, `Frame`, `Badge`,
 *   `Expandable`, `Icon`, …) is replaced by its content (block content in paragraphs).
 * - A component imported from a `.md`/`.mdx` snippet is replaced by the snippet's export.
 * - Code fences keep their language and options; GFM tables, task lists and strikethrough stay.
 * - Whatever a container holds is indented as that container needs: a `Step` (a list item)
 *   indents every line of its content, a fence's closing line included, by its marker's width,
 *   and the page's own indentation inside JSX tags is removed first (`dedentedSlice`), so a
 *   CommonMark reader sees the same blocks the page shows.
 */
import type { BlockContent, Heading, Nodes, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import type {} from 'mdast-util-mdx';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { componentExport } from './component-export.ts';
import { headingsAtLeast, shallowestHeading } from './export-headings.ts';
import { isJsx, stringProp, textProp, type JsxElement } from './jsx-attributes.ts';
import { plainText } from './search-text.ts';
import { visibilityOf } from './visibility.ts';

const LABELLED = new Set(['Note', 'Tip', 'Warning', 'Info', 'Check', 'Danger']);
const SECTIONS = new Set(['Tab', 'Accordion', 'Update', 'View']);

const FLOW = new Set(['blockquote', 'code', 'heading', 'html', 'list', 'paragraph', 'table', 'thematicBreak', 'definition', 'footnoteDefinition']);

/** Wraps runs of inline content (a one-line `<Note>text</Note>`) in paragraphs. */
function paragraphs(nodes: RootContent[]): BlockContent[] {
  const out: BlockContent[] = [];
  let run: PhrasingContent[] | undefined;
  for (const node of nodes) {
    if (FLOW.has(node.type)) {
      run = undefined;
      out.push(node as BlockContent);
    } else {
      if (!run) out.push({ type: 'paragraph', children: (run = []) });
      run.push(node as PhrasingContent);
    }
  }
  return out;
}

const MDX_TYPES = new Set(['mdxjsEsm', 'mdxFlowExpression', 'mdxTextExpression', 'mdxJsxFlowElement', 'mdxJsxTextElement']);

function plainMarkdown(node: Nodes): boolean {
  if (MDX_TYPES.has(node.type)) return false;
  return !('children' in node) || node.children.every((c) => plainMarkdown(c as Nodes));
}

/**
 * Converts a parsed page (frontmatter already read) to the export document. `source` is the
 * page text: subtrees without any MDX syntax are copied from it verbatim, which keeps the
 * author's formatting and skips re-serialising (the costly part of mdast-util-to-markdown).
 */
export function markdownExport(tree: Root, source: string, title: string, description: string | undefined, file: string, snippets: ReadonlyMap<string, string> = new Map()): string {
  const content = tree.children.filter((n) => n.type !== 'yaml' && n.type !== 'mdxjsEsm');
  const first = content[0];
  if (first?.type === 'heading' && first.depth === 1 && plainText(first).trim() === title.trim()) content.shift();
  const doc: Root = {
    type: 'root',
    children: [
      { type: 'heading', depth: 1, children: [{ type: 'text', value: title }] },
      ...(description ? [{ type: 'paragraph', children: [{ type: 'text', value: description }] } as Paragraph] : []),
      ...exportNodes(content, source, file, snippets),
    ],
  };
  return serialize(doc);
}

/**
 * The export of an imported Markdown/MDX snippet: its body only, to be put where the page uses
 * it (`<Snippet />`). Snippets of snippets are not followed.
 */
export function snippetExport(tree: Root, source: string, file: string): string {
  return serialize({ type: 'root', children: exportNodes(tree.children, source, file, new Map()) }).trimEnd();
}

function serialize(doc: Root): string {
  return toMarkdown(doc, { extensions: [gfmToMarkdown()], bullet: '-', listItemIndent: 'one', rule: '-', fences: true });
}

/** Visual width of a run of spaces and tabs (tab stops every 4 columns, as CommonMark counts). */
function widthOf(space: string): number {
  let width = 0;
  for (const ch of space) width = ch === '\t' ? width + 4 - (width % 4) : width + 1;
  return width;
}

/**
 * The source from `start` to `end` with every line after the first moved left by the
 * indentation of the first (what the page nests it in: JSX tags, list items), so the text can be
 * placed in any container of the export, which indents every line by its own amount. Lines
 * indented less lose what they have. Undefined when the first line's prefix holds more than
 * spaces and list markers (a block quote's `>`): such text is serialised from its tree instead.
 */
export function dedentedSlice(source: string, start: number, end: number): string | undefined {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const prefix = source.slice(lineStart, start);
  if (!/^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*$/.test(prefix)) return undefined;
  const text = source.slice(start, end);
  const indent = widthOf(prefix);
  if (indent === 0) return text;
  return text.split('\n').map((line, i) => {
    if (i === 0) return line;
    let width = 0;
    let cut = 0;
    while (cut < line.length && (line[cut] === ' ' || line[cut] === '\t')) {
      const next = line[cut] === '\t' ? width + 4 - (width % 4) : width + 1;
      if (next > indent) break;
      width = next;
      cut += 1;
    }
    return line.slice(cut);
  }).join('\n');
}

function exportNodes(nodes: RootContent[], source: string, file: string, snippets: ReadonlyMap<string, string>): RootContent[] {
  let lastDepth = 1;
  // Inside a section, headings written in the page move down by `shift` so they fall under the
  // section's own heading; `floor` is the shallowest depth allowed there (export-headings.ts).
  let shift = 0;
  let floor = 1;
  // Inside a Markdown block quote every source line carries its `>`: nothing there is copied.
  let quoted = 0;
  const convert = (nodes: RootContent[]): RootContent[] => nodes.flatMap((n) => one(n));
  const one = (node: RootContent): RootContent[] => {
    if (node.type === 'heading' && shift > 0) {
      const depth = Math.min(6, node.depth + shift) as Heading['depth'];
      lastDepth = depth;
      return [{ ...node, depth, children: convert(node.children) as PhrasingContent[] }];
    }
    if (node.type === 'heading') lastDepth = node.depth;
    // A fence is written from its tree: its value is exactly the code, whatever the page's
    // indentation, and the serialiser fences it for the container it ends up in.
    if (node.type === 'code') return [{ type: 'code', lang: node.lang, meta: node.meta, value: node.value }];
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    // Lists are written from their tree (their items' content is still copied): the serialiser
    // then marks a list that follows another (`1)` after `1.`) so a reader does not join them.
    if (!quoted && start !== undefined && end !== undefined && FLOW.has(node.type) && node.type !== 'html' && node.type !== 'list' && plainMarkdown(node)) {
      // An `html` node is written out as-is by mdast-util-to-markdown, indented by the
      // container it is in. Paragraphs stay paragraphs (a callout label may be put in front of
      // their text).
      if (node.type !== 'paragraph') {
        const text = dedentedSlice(source, start, end);
        if (text !== undefined) return [{ type: 'html', value: text }];
      } else {
        const first = node.children[0]?.position?.start.offset;
        const last = node.children.at(-1)?.position?.end.offset;
        const text = first !== undefined && last !== undefined ? dedentedSlice(source, first, last) : undefined;
        if (text !== undefined) return [{ type: 'paragraph', children: [{ type: 'html', value: text }] }];
      }
    }
    if (node.type === 'blockquote') {
      quoted += 1;
      try { return [{ ...node, children: convert(node.children) as BlockContent[] }]; } finally { quoted -= 1; }
    }
    switch (node.type) {
      case 'yaml':
      case 'mdxjsEsm':
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        return [];
      case 'heading':
        return [{ ...node, children: convert(node.children) as PhrasingContent[] }];
      case 'paragraph': {
        // An inline component with no export (`<Icon>`) leaves the space after it at the start.
        const children = convert(node.children) as PhrasingContent[];
        const first = children[0];
        if (first?.type === 'text') children[0] = { ...first, value: first.value.trimStart() };
        return children.length ? [{ ...node, children }] : [];
      }
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        return jsx(node);
      default:
        return 'children' in node ? [{ ...node, children: convert(node.children as RootContent[]) } as RootContent] : [node];
    }
  };
  const jsx = (node: JsxElement): RootContent[] => {
    const name = node.name ?? '';
    const flow = node.type === 'mdxJsxFlowElement';
    if (name === 'Visibility') return visibilityOf(node, file) === 'agents' ? convert(node.children) : [];
    const snippet = snippets.get(name);
    if (snippet !== undefined) return snippet === '' ? [] : [{ type: 'html', value: headingsAtLeast(snippet, floor) }];
    if (flow && (LABELLED.has(name) || name === 'Callout')) {
      const children = paragraphs(convert(node.children));
      const label = LABELLED.has(name) ? `${name}:` : stringProp(node, 'title');
      if (label !== undefined) {
        const strong: PhrasingContent = { type: 'strong', children: [{ type: 'text', value: label }] };
        const first = children[0];
        // Only the callout's own text takes the label: a nested component's first line (a card's
        // or a field's title) stays a paragraph of its own.
        if (first?.type === 'paragraph' && node.children[0]?.type !== 'mdxJsxFlowElement') children[0] = { ...first, children: [strong, { type: 'text', value: ' ' }, ...first.children] };
        else children.unshift({ type: 'paragraph', children: [strong] });
      }
      return [{ type: 'blockquote', children }];
    }
    if (flow && SECTIONS.has(name)) {
      const depth = Math.min(6, lastDepth + 1) as Heading['depth'];
      const own = textProp(node, name === 'Update' ? 'label' : 'title');
      // An update without a label (Mintlify renders one) is headed by its description.
      const describedOnly = name === 'Update' && own === undefined && stringProp(node, 'description') !== undefined;
      const heading: Heading = { type: 'heading', depth, children: [{ type: 'text', value: own ?? (describedOnly ? stringProp(node, 'description')! : name) }] };
      const date = name === 'Update' ? stringProp(node, 'date') : undefined;
      const about = name === 'Update' && !describedOnly ? stringProp(node, 'description') : undefined;
      const saved = [lastDepth, shift, floor] as const;
      lastDepth = depth;
      floor = Math.min(6, depth + 1);
      shift = Math.max(0, floor - (shallowestHeading(node.children as RootContent[]) ?? floor));
      const body = paragraphs(convert(node.children));
      [lastDepth, shift, floor] = saved;
      const meta: Paragraph[] = [];
      if (date) meta.push({ type: 'paragraph', children: [{ type: 'emphasis', children: [{ type: 'text', value: date }] }] });
      if (about) meta.push({ type: 'paragraph', children: [{ type: 'text', value: about }] });
      return [heading, ...meta, ...body];
    }
    if (flow && name === 'Steps') {
      const items = node.children.filter((c) => isJsx(c as Nodes, 'Step')) as JsxElement[];
      return [{
        type: 'list', ordered: true, spread: true,
        children: items.map((step) => {
          const title = textProp(step, 'title');
          const body = paragraphs(convert(step.children));
          const head: Paragraph[] = title ? [{ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: title }] }] }] : [];
          return { type: 'listItem', spread: true, children: [...head, ...body] };
        }),
      }];
    }
    const special = componentExport(node, convert, flow);
    if (special !== undefined) return special;
    if (flow && name === 'Card') {
      const title = textProp(node, 'title');
      const href = stringProp(node, 'href');
      const text: PhrasingContent = { type: 'text', value: title ?? '' };
      const head: Paragraph[] = title ? [{ type: 'paragraph', children: [{ type: 'strong', children: [href ? { type: 'link', url: href, children: [text] } : text] }] }] : [];
      return [...head, ...paragraphs(convert(node.children))];
    }
    if (name === 'img') {
      // The export is one document for every reader: the light image of a light/dark pair
      // (site template classes `light-only`/`dark-only`) stands for both.
      if ((stringProp(node, 'className') ?? stringProp(node, 'class'))?.split(/\s+/).includes('dark-only')) return [];
      const src = stringProp(node, 'src');
      const image: PhrasingContent = { type: 'image', url: src ?? '', alt: stringProp(node, 'alt') ?? '' };
      return src === undefined ? [] : flow ? [{ type: 'paragraph', children: [image] }] : [image];
    }
    if (name === 'br' && !flow) return [{ type: 'break' }];
    if (name === 'a' && !flow && stringProp(node, 'href') !== undefined) {
      return [{ type: 'link', url: stringProp(node, 'href')!, children: convert(node.children) as PhrasingContent[] }];
    }
    // A one-line `<Frame>text</Frame>` holds inline content: it needs a paragraph of its own.
    return flow ? paragraphs(convert(node.children)) : convert(node.children);
  };

  return convert(nodes);
}

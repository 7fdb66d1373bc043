/**
 * Markdown export and search text of the components whose meaning lives in their props
 * (markdown-export.ts and search-text.ts handle the rest): API fields, file trees, colour
 * palettes, repository cards, diagrams, tooltips, buttons, tiles, `<CodeBlock>` (a fence) and
 * `<Link>` (a link).
 */
import type { BlockContent, ListItem, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { isJsx, stringProp, type JsxElement } from './jsx-attributes.ts';

const LOCATIONS = ['path', 'query', 'body', 'header', 'cookie'];
const text = (value: string): PhrasingContent => ({ type: 'text', value });
const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
const strong = (children: PhrasingContent[]): PhrasingContent => ({ type: 'strong', children });
const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
const children = (node: JsxElement) => node.children as RootContent[];
/** Text of Markdown nodes as written (code keeps its value). */
const textIn = (node: Nodes): string => {
  if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') {
    // A literal written as an expression (`{\`npm i\`}`) is its text; anything else is only known when the page runs.
    const literal = /^\s*(`|"|')([^]*)\1\s*$/.exec(node.value);
    return literal && !(literal[1] === '`' && literal[2].includes('${')) ? literal[2] : '';
  }
  if ('value' in node && typeof node.value === 'string' && node.type !== 'mdxjsEsm') return node.value;
  return 'children' in node ? node.children.map((c) => textIn(c as Nodes)).join('') : '';
};

/** A field's name and facts: its name, location, type, and whether it is required, deprecated or defaulted. */
function fieldFacts(node: JsxElement): { name?: string; facts: string[] } {
  const location = LOCATIONS.find((l) => stringProp(node, l) !== undefined);
  const name = location ? stringProp(node, location) : stringProp(node, 'name');
  const facts = [location, stringProp(node, 'type')].filter((f): f is string => f !== undefined);
  const has = (prop: string) => node.attributes.some((a) => a.type === 'mdxJsxAttribute' && a.name === prop && (a.value === null || a.value === undefined || a.value === 'true'));
  if (has('required')) facts.push('required');
  if (has('deprecated')) facts.push('deprecated');
  const fallback = stringProp(node, 'default');
  if (fallback !== undefined) facts.push(`default: ${fallback}`);
  return { name, facts };
}

function treeItems(nodes: RootContent[]): ListItem[] {
  return nodes.filter((n) => isJsx(n as Nodes)).flatMap((n): ListItem[] => {
    const el = n as JsxElement;
    const name = stringProp(el, 'name') ?? '';
    if (el.name?.endsWith('.Folder')) {
      const nested = treeItems(children(el));
      return [{ type: 'listItem', spread: false, children: [paragraph([text(`${name}/`)]), ...(nested.length ? [{ type: 'list', ordered: false, spread: false, children: nested } as BlockContent] : [])] }];
    }
    if (el.name?.endsWith('.File')) return [{ type: 'listItem', spread: false, children: [paragraph([text(name)])] }];
    return treeItems(children(el));
  });
}

/**
 * The export of one of these components, or undefined for the others. `convert` exports
 * children; `flow` is true in block position.
 */
export function componentExport(node: JsxElement, convert: (nodes: RootContent[]) => RootContent[], flow: boolean): RootContent[] | undefined {
  const name = node.name ?? '';
  if (flow && (name === 'ParamField' || name === 'ResponseField')) {
    const { name: field, facts } = fieldFacts(node);
    const head = paragraph([strong([code(field ?? '')]), ...(facts.length ? [text(` (${facts.join(', ')})`)] : [])]);
    return [head, ...convert(children(node))];
  }
  if (flow && (name === 'Tree' || name === 'FileTree')) {
    const items = treeItems(children(node));
    return items.length ? [{ type: 'list', ordered: false, spread: false, children: items }] : convert(children(node));
  }
  if (flow && name === 'Color') {
    const items: ListItem[] = [];
    const visit = (nodes: RootContent[]) => {
      for (const n of nodes) {
        if (isJsx(n as Nodes, 'Color.Item')) {
          const el = n as JsxElement;
          items.push({ type: 'listItem', spread: false, children: [paragraph([text(`${stringProp(el, 'name') ?? ''}: `), code(stringProp(el, 'value') ?? '')])] });
        } else if (isJsx(n as Nodes)) visit(children(n as JsxElement));
      }
    };
    visit(children(node));
    return items.length ? [{ type: 'list', ordered: false, spread: false, children: items }] : [];
  }
  if (name === 'GitHub.Repo') {
    const repo = stringProp(node, 'repo') ?? '';
    const url = stringProp(node, 'href') ?? `https://github.com/${repo}`;
    const about = stringProp(node, 'description');
    const line: PhrasingContent[] = [{ type: 'link', url, children: [text(repo)] }, ...(about ? [text(`: ${about}`)] : [])];
    return flow ? [paragraph(line)] : line as RootContent[];
  }
  if (flow && name === 'Mermaid') {
    const chart = stringProp(node, 'chart');
    return chart === undefined ? convert(children(node)) : [{ type: 'code', lang: 'mermaid', value: chart }];
  }
  if (name === 'Tooltip') {
    const tip = stringProp(node, 'tip');
    const inner = convert(children(node));
    return tip ? [...inner, text(` (${tip})`) as RootContent] : inner;
  }
  if ((name === 'PreviewButton' || name === 'Tile') && stringProp(node, 'href') !== undefined) {
    const label = name === 'Tile' ? stringProp(node, 'title') : undefined;
    const about = name === 'Tile' ? stringProp(node, 'description') : undefined;
    const link: PhrasingContent = { type: 'link', url: stringProp(node, 'href')!, children: label ? [text(label)] : (convert(children(node)) as PhrasingContent[]) };
    if (!flow) return [link as RootContent];
    return [paragraph([link, ...(about ? [text(`: ${about}`)] : [])])];
  }
  if (flow && name === 'Prompt') {
    const about = stringProp(node, 'description');
    return [...(about ? [paragraph([strong([text(about)])])] : []), { type: 'blockquote', children: convert(children(node)) as BlockContent[] }];
  }
  if (flow && name === 'CodeBlock') {
    // Written in the page with its code as text (a fence inside stays a fence).
    const inner = children(node);
    if (inner.some((n) => n.type === 'code')) return convert(inner);
    const value = inner.map((n) => textIn(n as Nodes)).join('\n').replace(/^\n+|\n+$/g, '');
    const filename = stringProp(node, 'filename');
    return value === '' ? [] : [{ type: 'code', lang: stringProp(node, 'language') ?? null, meta: filename ?? null, value }];
  }
  if (name === 'Link' && stringProp(node, 'href') !== undefined) {
    const link: PhrasingContent = { type: 'link', url: stringProp(node, 'href')!, children: convert(children(node)).flatMap((n) => (n.type === 'paragraph' ? n.children : [n as PhrasingContent])) };
    return flow ? [paragraph([link])] : [link as RootContent];
  }
  if (flow && name === 'Frame') {
    const src = stringProp(node, 'src');
    const caption = stringProp(node, 'caption');
    return [
      ...(src !== undefined ? [paragraph([{ type: 'image', url: src, alt: stringProp(node, 'alt') ?? '' }])] : []),
      ...convert(children(node)),
      ...(caption ? [paragraph([{ type: 'emphasis', children: [text(caption)] }])] : []),
    ];
  }
  return undefined;
}

/** Search text a component carries in its props (a field's name and type, a file's name, a tip), or undefined. */
export function componentSearchText(node: JsxElement): string | undefined {
  const name = node.name ?? '';
  if (name === 'ParamField' || name === 'ResponseField') {
    const { name: field, facts } = fieldFacts(node);
    return [field, ...facts].filter(Boolean).join(' ');
  }
  if (name.endsWith('.Folder') || name.endsWith('.File')) return stringProp(node, 'name');
  if (name === 'Color.Item') return [stringProp(node, 'name'), stringProp(node, 'value')].filter(Boolean).join(' ');
  if (name === 'GitHub.Repo') return [stringProp(node, 'repo'), stringProp(node, 'description')].filter(Boolean).join(' ');
  if (name === 'Mermaid') return stringProp(node, 'chart');
  if (name === 'Tile') return [stringProp(node, 'title'), stringProp(node, 'description')].filter(Boolean).join(' ');
  if (name === 'CodeBlock') return stringProp(node, 'filename');
  return undefined;
}

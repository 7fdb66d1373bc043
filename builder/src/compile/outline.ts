/**
 * Anchors and structure of a page, in document order with one id space per page:
 * - every heading gets a slug `id` and a trailing `<a class="heading-anchor" href="#id">`;
 *   h2 and h3 outside agents-only content become TOC entries;
 * - every `<Update label=…>` (a string, or JSX whose text names it; none: no anchor) is described by `id` (its anchor: the template's slug of the label)
 *   and a TOC entry, and its body is wrapped in comment markers so its rendered HTML can be cut out of the page for the RSS feed.
 */
import type { Heading, Nodes, Root } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { TocEntry } from '@folio/site-template/shared/types.ts';
import { anchorId } from '@folio/site-template/node/anchor-id.ts';
import { isJsx, stringProp, type JsxElement } from './jsx-attributes.ts';
import type { EsNode } from './estree-walk.ts';
import { plainText } from './search-text.ts';
import { headingIdOf } from './heading-ids.ts';
import { Slugger } from './slugger.ts';

/** Name of the internal component that renders a marker comment `<!--folio:…-->`. */
export const MARKER_COMPONENT = 'FolioMarker';

/** What an `<Update>` says before rendering; `html` is cut from the rendered page later. */
export interface UpdateFacts { id: string; label: string; description: string; date?: string }

/** Headings and updates found on a page. */
export interface Outline { toc: TocEntry[]; firstH1?: string; updates: UpdateFacts[] }

function marker(flow: boolean, value: string): MdxJsxFlowElement | MdxJsxTextElement {
  return { type: flow ? 'mdxJsxFlowElement' : 'mdxJsxTextElement', name: MARKER_COMPONENT, attributes: [{ type: 'mdxJsxAttribute', name: 'm', value }], children: [] };
}

function isoDate(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The text of a JSX-valued attribute (`label={<><Icon/>Quickstart</>}`): its JSX text and `{"string"}` children, not attribute values. */
function expressionText(node: JsxElement, name: string): string | undefined {
  const attr = node.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === name);
  const estree = attr && typeof attr.value === 'object' ? attr.value?.data?.estree : undefined;
  if (!estree) return undefined;
  const parts: string[] = [];
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (typeof n !== 'object' || n === null) return;
    const e = n as EsNode;
    if (e.type === 'JSXAttribute') return;
    if (e.type === 'JSXText') parts.push(String(e.value));
    const inner = e.type === 'JSXExpressionContainer' ? e.expression as EsNode : undefined;
    if (inner?.type === 'Literal' && typeof inner.value === 'string') parts.push(inner.value);
    if (e.type === 'JSXExpressionContainer') return;
    for (const key in e) if (key !== 'loc' && key !== 'range' && key !== 'position' && key !== 'data') visit(e[key]);
  };
  visit(estree);
  return parts.join('').replace(/\s+/g, ' ').trim() || undefined;
}

/**
 * The text a heading's id is made from: its text without JSX elements, as Mintlify makes it
 * (`` ### `theme` - <Badge>required</Badge> `` is `#theme`).
 */
function idText(node: Nodes): string {
  if (node.type === 'mdxJsxTextElement' || node.type === 'mdxJsxFlowElement' || node.type === 'mdxTextExpression') return '';
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? node.children.map((c) => idText(c as Nodes)).join('') : '';
}

/** Adds heading ids, anchors and update markers in place and returns the outline. */
export function applyOutline(tree: Root, _file: string): Outline {
  const slugger = new Slugger();
  const outline: Outline = { toc: [], updates: [] };
  const heading = (node: Heading, hidden: boolean): void => {
    // Mintlify's `## Title {#custom-id}` (heading-ids.ts): the id as written, the marker removed.
    const last = node.children[node.children.length - 1];
    const custom = last?.type === 'mdxTextExpression' ? headingIdOf(last.value) : undefined;
    if (custom !== undefined) {
      node.children.pop();
      const before = node.children[node.children.length - 1];
      if (before?.type === 'text') before.value = before.value.replace(/[ \t]+$/, '');
    }
    const text = plainText(node).trim();
    const id = custom ?? slugger.slug(idText(node).trim() || text);
    node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id } };
    node.children.push({
      type: 'mdxJsxTextElement', name: 'a', children: [{ type: 'text', value: '#' }],
      attributes: [
        { type: 'mdxJsxAttribute', name: 'class', value: 'heading-anchor' },
        { type: 'mdxJsxAttribute', name: 'href', value: `#${id}` },
        { type: 'mdxJsxAttribute', name: 'aria-hidden', value: 'true' },
        { type: 'mdxJsxAttribute', name: 'tabindex', value: '-1' },
      ],
    });
    if (node.depth === 1 && outline.firstH1 === undefined) outline.firstH1 = text;
    if ((node.depth === 2 || node.depth === 3) && !hidden) outline.toc.push({ depth: node.depth, id, text });
  };
  const update = (node: JsxElement, hidden: boolean): void => {
    // Mintlify renders an update whose label is JSX, or missing, without complaint: the text of
    // a JSX label names the anchor as the template's text of it does; none leaves it unanchored.
    const label = stringProp(node, 'label') ?? expressionText(node, 'label');
    if (label === undefined || label.trim() === '') return;
    // The template's <Update> derives its anchor from the label with the same function (Mintlify's
    // heading rules), which keeps the feed's links pointing at the rendered anchor.
    const id = anchorId(label);
    const index = outline.updates.length;
    const description = stringProp(node, 'rss') ?? node.children.map((c) => plainText(c as Nodes).replace(/\s+/g, ' ').trim()).filter(Boolean).join(' ');
    const date = isoDate(stringProp(node, 'date'));
    outline.updates.push({ id, label, description, ...(date ? { date } : {}) });
    // The template renders each update as an anchored h2, so it belongs in the page's TOC.
    if (!hidden) outline.toc.push({ depth: 2, id, text: label });
    const flow = node.type === 'mdxJsxFlowElement';
    node.children = [marker(flow, `u:${index}`), ...node.children, marker(flow, `/u:${index}`)] as typeof node.children;
  };
  const visit = (nodes: Nodes[], hidden: boolean): void => {
    for (const node of nodes) {
      if (node.type === 'heading') heading(node, hidden);
      else if (isJsx(node, 'Update')) update(node, hidden);
      if ('children' in node) {
        const agents = isJsx(node, 'Visibility') && stringProp(node, 'for') === 'agents';
        // Update children were just wrapped; markers have no children, so walking them is harmless.
        visit(node.children as Nodes[], hidden || agents);
      }
    }
  };
  visit(tree.children, false);
  return outline;
}

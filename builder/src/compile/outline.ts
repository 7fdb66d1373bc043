/**
 * Anchors and structure of a page, in document order with one id space per page:
 * - every heading gets a slug `id` and a trailing `<a class="heading-anchor" href="#id">`;
 *   h2 and h3 outside agents-only content become TOC entries;
 * - every `<Update label=…>` is described by `id` (its anchor: the template's slug of the label)
 *   and a TOC entry, and its body is wrapped in comment markers so its rendered HTML can be cut out of the page for the RSS feed.
 */
import type { Heading, Nodes, Root } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { TocEntry } from '@folio/site-template/shared/types.ts';
import { userError } from '../errors.ts';
import { slugify as slugifyLabel } from '@folio/site-template/node/urls.ts';
import { isJsx, stringProp, type JsxElement } from './jsx-attributes.ts';
import { plainText } from './search-text.ts';
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

/** Adds heading ids, anchors and update markers in place and returns the outline. */
export function applyOutline(tree: Root, file: string): Outline {
  const slugger = new Slugger();
  const outline: Outline = { toc: [], updates: [] };
  const heading = (node: Heading, hidden: boolean): void => {
    const text = plainText(node).trim();
    const id = slugger.slug(text);
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
    const label = stringProp(node, 'label');
    if (label === undefined) {
      throw userError('mdx_update', 'Unexpected <Update> without `label`; expected label="…"', { file, line: node.position?.start.line, column: node.position?.start.column });
    }
    // The template's <Update> derives its anchor from the label with its own slug function;
    // using the same one keeps the feed's links pointing at the rendered anchor.
    const id = slugifyLabel(label);
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

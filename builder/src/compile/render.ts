/**
 * Renders a compiled page module to HTML with preact-render-to-string and finishes it.
 *
 * Code blocks arrive as one carrier element each (`<CodeHtml k="…"/>`, the key of its HTML in
 * `CodeBlocks`); the carrier returns
 * a Fragment with a `tpl` prop, which preact-render-to-string writes out verbatim (the form it
 * uses for precompiled JSX). So the highlighted HTML never becomes thousands of VNodes and needs
 * no wrapper element or second pass. `<Update>` bodies are wrapped in `<!--folio:u:N-->`
 * comments the same way and cut out afterwards for the RSS feed; MDX cannot author comments,
 * so page content cannot forge them.
 */
import { Fragment, h, type ComponentType } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { CODE_COMPONENT } from './remark-folio.ts';
import { ISLAND_COMPONENT, islandProps } from './islands.ts';
import { MARKER_COMPONENT } from './outline.ts';
import type { CodeBlockProps } from '@folio/site-template/components/code-block.tsx';
import { textOf } from '@folio/site-template/components/text-of.ts';
import { highlightCodeBlock } from './code-block.ts';
import type { SharedHighlighter } from './highlighter.ts';

/** The default export of a compiled MDX module. */
export type MdxContent = ComponentType<{ components?: Record<string, unknown> }>;

/** Rendered page body and the HTML of each `<Update>` body, in order. */
export interface RenderedPage { html: string; updates: string[] }

function raw(html: string) {
  return h(Fragment, { tpl: [html], exprs: [] } as never);
}

/**
 * Highlighted code blocks of the batch being compiled, by carrier key. The HTML stays out of
 * the page modules: as string literals it made each module about three times bigger to
 * generate, rewrite, parse and evaluate.
 */
export class CodeBlocks {
  private readonly html = new Map<string, string>();
  private next = 0;
  /** Keeps one block's HTML; returns the key its carrier element names. */
  put(html: string): string {
    const key = String(this.next++);
    this.html.set(key, html);
    return key;
  }
  get(key: string): string {
    return this.html.get(key) ?? '';
  }
  /** Forgets every block (after a batch is rendered). */
  clear(): void {
    this.html.clear();
  }
}

/** The root of an interactive component: the browser hydrates it with the same props (islands.ts). */
function FolioIsland(props: { c: string; of: ComponentType<Record<string, unknown>> } & Record<string, unknown>) {
  const { c, of, ...rest } = props;
  return h('folio-island', { 'data-c': c, 'data-p': islandProps(props) }, h(of, rest));
}

function FolioMarker({ m }: { m: string }) {
  return raw(`<!--folio:${m}-->`);
}

/**
 * `<CodeBlock>` highlighted like a fence of its language (its code is computed while the page
 * runs, so it is highlighted here, with the grammars the compiler loaded for the batch); the
 * template's plain block while the grammar is not loaded.
 */
function highlightedCodeBlock(shared: SharedHighlighter, Plain: ComponentType<CodeBlockProps>) {
  return function CodeBlock(props: CodeBlockProps) {
    const code = (typeof props.children === 'string' ? props.children : textOf(props.children)).replace(/^\n/, '').replace(/\n$/, '');
    const pre = highlightCodeBlock(shared, code, props);
    if (pre === undefined) return h(Plain, props);
    // The template's block (title, icon, badge, copy button, expand control) with the highlighted code in it.
    const plain = renderToString(h(Plain, props));
    const at = plain.indexOf('<pre class="code-plain"');
    const end = plain.indexOf('</pre>', at);
    return raw(at < 0 || end < 0 ? plain : plain.slice(0, at) + pre + plain.slice(end + '</pre>'.length));
  };
}

const HIGHLIGHTED = Symbol('highlighted');

/**
 * Makes the template's `<CodeBlock>` highlighted, in place: its `components` map is what pages'
 * content receives and what their own ESM and snippets bind built-in names from
 * (component-scope.ts), so both uses highlight. Once per compiler.
 */
export function highlightTemplateCodeBlocks(template: Record<string, unknown>, shared: SharedHighlighter): void {
  const plain = template.CodeBlock as (ComponentType<CodeBlockProps> & { [HIGHLIGHTED]?: true }) | undefined;
  if (!plain || plain[HIGHLIGHTED]) return;
  template.CodeBlock = Object.assign(highlightedCodeBlock(shared, plain), { [HIGHLIGHTED]: true });
}

/** The components pages render with: the template's, plus the internal carriers. */
export function pageComponents(template: Record<string, unknown>, blocks: CodeBlocks): Record<string, unknown> {
  const CodeHtml = ({ k }: { k: string }) => raw(blocks.get(k));
  return { ...template, [CODE_COMPONENT]: CodeHtml, [MARKER_COMPONENT]: FolioMarker, [ISLAND_COMPONENT]: FolioIsland };
}

const CODE_BLOCK_LANGUAGE = /<CodeBlock\b[^>]*?\blanguage=["']([\w#+.-]{1,40})["']/g;

/** The languages `<CodeBlock language="…">` tags name in `texts` (a page and the files it imports), to load before rendering. */
export function codeBlockLanguages(texts: Iterable<string | undefined>): Set<string> {
  const found = new Set<string>();
  for (const text of texts) if (text?.includes('<CodeBlock')) for (const m of text.matchAll(CODE_BLOCK_LANGUAGE)) found.add(m[1]);
  return found;
}

const UPDATE = /<!--folio:u:(\d+)-->([\s\S]*?)<!--folio:\/u:\1-->/g;

/** Renders and finishes one page with `components` (from {@link pageComponents}). */
export function renderMdx(Content: MdxContent, components: Record<string, unknown>): RenderedPage {
  const updates: string[] = [];
  const html = renderToString(h(Content, { components })).replace(UPDATE, (_, i: string, body: string) => {
    updates[Number(i)] = body;
    return body;
  });
  return { html, updates };
}

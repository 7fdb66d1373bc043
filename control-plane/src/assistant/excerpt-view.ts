/**
 * A passage as a reader sees it among search results: its Markdown rendered to safe HTML
 * (CommonMark and GFM through micromark: raw HTML in the text is escaped, `javascript:` and other
 * unsafe link targets are emptied, code blocks stay code blocks), without images and without
 * what only AI agents get (page-audiences.ts), cut at block boundaries to about
 * {@link EXCERPT_VIEW_CHARS} characters; and the same as one line of clean text.
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { agentsOnlyBlock, type PageAudiences } from './page-audiences.ts';

/** Markdown characters of a passage shown, at most (the first block is cut when it alone is longer). */
export const EXCERPT_VIEW_CHARS = 900;
/** Characters of the clean-text snippet. */
export const SNIPPET_CHARS = 300;

export interface ExcerptView {
  /** Safe HTML: p, pre/code, ul/ol/li, blockquote, table, strong, em, a, code … never img, script or attributes besides href/class/align. */
  html: string;
  /** The same as clean text on one line, at most {@link SNIPPET_CHARS} characters. */
  text: string;
}

const FENCE = /^\s*(`{3,}|~{3,})/;

/** Top-level blocks: split at blank lines outside code fences. */
function blocks(markdown: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1];
      else if (f[1].startsWith(fence)) fence = undefined;
    }
    if (fence === undefined && !f && line.trim() === '') {
      if (current.length) out.push(current.join('\n'));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length) out.push(current.join('\n'));
  return out;
}

/** A block cut to `max` characters; an open code fence is closed again. */
function cutBlock(block: string, max: number): string {
  const lines = block.split('\n');
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length > max && kept.length) break;
    kept.push(size + line.length > max ? `${line.slice(0, max).replace(/\s+\S*$/, '')} …` : line);
    size += line.length + 1;
  }
  const fence = FENCE.exec(kept[0] ?? '');
  if (fence && kept.length < lines.length) kept.push(fence[1]);
  return kept.join('\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of rendered HTML (tags out, entities decoded, spacing collapsed). */
export function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function render(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    // Images are page furniture, not an answer: out, with any link left empty by them.
    .replace(/<img\b[^>]*>/g, '')
    .replace(/<a\b[^>]*>\s*<\/a>/g, '')
    .replace(/<p>\s*<\/p>/g, '')
    .replace(/>\n{2,}</g, '>\n<') // (a literal < or > is always a tag: text and code are escaped)
    .trim();
}

/** Renders a passage for readers; `audiences` (from the page's HTML) drops agents-only blocks. */
export function excerptView(markdown: string, audiences?: PageAudiences): ExcerptView {
  const kept: string[] = [];
  let size = 0;
  for (const block of blocks(markdown)) {
    if (audiences && agentsOnlyBlock(audiences, htmlText(render(block)))) continue;
    if (kept.length && size + block.length > EXCERPT_VIEW_CHARS) break;
    kept.push(size + block.length > EXCERPT_VIEW_CHARS ? cutBlock(block, EXCERPT_VIEW_CHARS - size) : block);
    size += block.length + 2;
  }
  const html = render(kept.join('\n\n'));
  const text = htmlText(html);
  return { html, text: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS).replace(/\s+\S*$/, '')} …` : text };
}

/**
 * A published site as the assistant reads it: the pages of `llms-full.txt` (every page's Markdown
 * export, the text agents get: agents-only content in, humans-only content out, so the assistant
 * can never reveal more than the exports already publish), each split into sections at its
 * headings, and long sections into passages of about {@link MAX_PASSAGE_CHARS} characters.
 */

/** One page of the site, from its Markdown export. */
export interface SitePage {
  /** The page's absolute URL as the builder wrote it (`Source:` line of llms-full.txt). */
  url: string;
  /** The URL's path (`/guides/install`), what citations link to on the site's own host. */
  path: string;
  title: string;
  description: string;
  markdown: string;
}

/** A passage of one page: the unit the index ranks and the assistant cites. */
export interface Passage {
  /** Index into the site's pages. */
  page: number;
  /** The heading the passage sits under (undefined: the page's introduction). */
  heading?: string;
  /** Which occurrence of that heading text on the page (0 for the first), to find its anchor. */
  occurrence: number;
  /** The passage's Markdown, without its heading line. */
  text: string;
}

/** Passages longer than this are cut at paragraph breaks (a long section would swamp the context). */
export const MAX_PASSAGE_CHARS = 1500;

const SOURCE_LINE = /^---\n\nSource: (\S+)\n\n/gm;
/** The lines opening a page, at the start of a string. */
export const SOURCE_LINE_AT = /^---\n\nSource: \S+\n\n/;

/** The pages of an `llms-full.txt` (the builder's format: `---`, `Source: <url>`, the page's Markdown). */
export function parseLlmsFull(text: string): SitePage[] {
  return parsePagesAt(text).pages;
}

/** The pages of an `llms-full.txt`, and the character offset of each one's `---` line. */
export function parsePagesAt(text: string): { pages: SitePage[]; at: number[] } {
  const pages: SitePage[] = [];
  const at: number[] = [];
  const starts = [...text.matchAll(SOURCE_LINE)];
  starts.forEach((m, i) => {
    const body = text.slice(m.index + m[0].length, i + 1 < starts.length ? starts[i + 1].index : text.length).trim();
    let path: string;
    try { path = new URL(m[1]).pathname; } catch { return; }
    const titleMatch = /^# (.+)\n/.exec(body);
    const title = titleMatch ? titleMatch[1].trim() : path;
    const rest = titleMatch ? body.slice(titleMatch[0].length).trimStart() : body;
    const firstPara = rest.split(/\n\s*\n/, 1)[0] ?? '';
    const description = /^[#>`|!\-*\d]/.test(firstPara) ? '' : firstPara.replace(/\s+/g, ' ').trim();
    pages.push({ url: m[1], path, title, description, markdown: body });
    at.push(m.index);
  });
  return { pages, at };
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Splits one page's Markdown into passages (headings inside code fences are code, not headings). */
export function pagePassages(page: SitePage, pageIndex: number): Passage[] {
  const out: Passage[] = [];
  const seen = new Map<string, number>();
  let heading: string | undefined;
  let occurrence = 0;
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const text = lines.join('\n').trim();
    lines = [];
    if (!text && heading === undefined) return;
    for (const part of cut(text)) out.push({ page: pageIndex, heading, occurrence, text: part });
  };
  const all = page.markdown.split('\n');
  // The export opens with `# Title`: that heading is the page itself, its text the introduction.
  const start = /^# /.test(all[0] ?? '') ? 1 : 0;
  for (const line of all.slice(start)) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
    }
    const h = fence === undefined && !f ? HEADING.exec(line) : null;
    if (h) {
      flush();
      heading = h[2].replace(/\\([[\]\\`*_#])/g, '$1').trim();
      occurrence = seen.get(heading) ?? 0;
      seen.set(heading, occurrence + 1);
      continue;
    }
    lines.push(line);
  }
  flush();
  return out;
}

/** Cuts a section's text at blank lines outside code fences into pieces of at most MAX_PASSAGE_CHARS (a longer paragraph stays whole). */
function cut(text: string): string[] {
  if (text.length <= MAX_PASSAGE_CHARS) return [text];
  const blocks: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '' && current.length) { blocks.push(current.join('\n')); current = []; continue; }
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  const pieces: string[] = [];
  let piece = '';
  for (const block of blocks) {
    if (piece && piece.length + block.length + 2 > MAX_PASSAGE_CHARS) { pieces.push(piece); piece = ''; }
    piece = piece ? `${piece}\n\n${block}` : block;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

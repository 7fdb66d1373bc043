/**
 * `llms.txt` (llmstxt.org format) and `llms-full.txt`, the machine-readable exports for LLMs.
 *
 * `llms.txt`: `# <name>`, then `> <seo.description>` when set, then `## Docs` listing every page
 * in reading order as `- [Title](<absolute .md URL>): <description>`. Links point at the
 * Markdown exports, which is what an agent should fetch.
 *
 * `llms-full.txt`: the same header, then every page's Markdown export in the same order, each
 * preceded by `Source: <page URL>` and separated by a `---` line.
 */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../types.ts';
import { inReadingOrder } from './reading-order.ts';
import { absoluteUrl, markdownKey, sitePath } from './site-paths.ts';

/**
 * The page fields the LLM exports read. The Markdown may be given as UTF-8 bytes, already
 * trimmed (a slice of the last published `llms-full.txt`: outputs/llms-full-recall.ts).
 */
export type LlmsPage = Pick<CompiledPage, 'urlPath' | 'title' | 'description'> & { markdown: string | Uint8Array };

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const linkText = (text: string) => oneLine(text).replace(/[[\]\\]/g, (c) => `\\${c}`);

function header(config: Pick<SiteConfig, 'name' | 'seo'>): string {
  const description = config.seo?.description;
  return `# ${oneLine(config.name)}\n\n` + (description ? `> ${oneLine(description)}\n\n` : '');
}

/**
 * A page as the LLM exports list it: `linkPath` is the page whose export it links to (the source
 * of a page shown by fallback in another language or version), default its own `urlPath`.
 */
export type LlmsEntry = LlmsPage & { linkPath?: string };

/** The text of `llms.txt`. */
export function llmsTxt(pages: readonly LlmsEntry[], config: Pick<SiteConfig, 'name' | 'seo' | 'siteUrl' | 'basePath'>, nav?: readonly NavItem[]): string {
  const lines = inReadingOrder(pages, nav).map((page) => {
    const url = absoluteUrl(config, sitePath(markdownKey(page.linkPath ?? page.urlPath)));
    return `- [${linkText(page.title)}](${url})` + (page.description ? `: ${oneLine(page.description)}` : '');
  });
  return `${header(config)}## Docs\n\n${lines.join('\n')}\n`;
}

/** Where one page's Markdown lies in an `llms-full.txt` file (byte offsets). */
export interface LlmsSegment { page: LlmsEntry; start: number; length: number }


/**
 * The bytes of `llms-full.txt`. With `segments`, also where each page's Markdown lies in them, so
 * a later build can take unchanged pages' Markdown from the published file as bytes
 * (outputs/llms-full-recall.ts): at 10,000 pages the file is ~60 MB, and decoding, joining and
 * encoding it again as text took a second of every edit.
 */
export function llmsFullBytes(
  pages: readonly LlmsEntry[], config: Pick<SiteConfig, 'name' | 'seo' | 'siteUrl' | 'basePath'>, nav?: readonly NavItem[], segments?: LlmsSegment[],
  alloc: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
): Buffer {
  // Sized first and written in place: one buffer, nothing allocated per page (at 10,000 pages a
  // cold build's Markdown is 55 MB of strings: encoding each first doubled the peak).
  const head = header(config);
  // `absoluteUrl` of each page is this plus its path: made once, not 10,000 times (two regular expressions each).
  const origin = absoluteUrl(config, '');
  const leads: string[] = [];
  const bodies: Array<string | Uint8Array> = [];
  let size = Buffer.byteLength(head);
  for (const [i, page] of inReadingOrder(pages, nav).entries()) {
    const lead = `${i > 0 ? '\n' : ''}---\n\nSource: ${origin}${page.linkPath ?? page.urlPath}\n\n`;
    const markdown = typeof page.markdown === 'string' ? page.markdown.trim() : page.markdown;
    const length = typeof markdown === 'string' ? Buffer.byteLength(markdown) : markdown.length;
    const at = size + Buffer.byteLength(lead);
    segments?.push({ page, start: at, length });
    leads.push(lead);
    bodies.push(markdown);
    size = at + length + 1;
  }
  const out = alloc(size);
  let at = out.write(head, 0);
  for (const [i, lead] of leads.entries()) {
    at += out.write(lead, at);
    const body = bodies[i];
    if (typeof body === 'string') at += out.write(body, at);
    else { out.set(body, at); at += body.length; }
    out[at++] = 0x0a;
  }
  return out;
}

/** The text of `llms-full.txt`: the same header, then every page's Markdown. */
export function llmsFullTxt(pages: readonly LlmsEntry[], config: Pick<SiteConfig, 'name' | 'seo' | 'siteUrl' | 'basePath'>, nav?: readonly NavItem[]): string {
  return llmsFullBytes(pages, config, nav).toString('utf8');
}

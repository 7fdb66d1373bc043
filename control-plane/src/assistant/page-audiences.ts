/**
 * Which text of a published page only AI agents get. The Markdown exports the assistant reads
 * carry `<Visibility for="agents">` content as plain Markdown, with no mark left; the page's HTML
 * still marks it (`data-visibility="agents"`, hidden). So the page's HTML tells the two apart:
 * the text inside agents-only elements, and the text every reader sees.
 */
import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';

export interface PageAudiences {
  /** The text of each agents-only element, compacted ({@link compactText}). */
  agentsOnly: string[];
  /** All text a person sees on the page, compacted. */
  visible: string;
}

/** Text as both sides compare it: lowercase letters and digits only (Markdown marks, tags, punctuation and spacing differ between the export and the page). */
export function compactText(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

const SKIP = new Set(['script', 'style', 'template', 'head', 'noscript']);

function textOf(node: T.Node, out: string[]): void {
  if (node.nodeName === '#text') { out.push((node as T.TextNode).value); return; }
  if (SKIP.has(node.nodeName)) return;
  for (const child of (node as T.Element).childNodes ?? []) textOf(child, out);
}

/** Reads a page's HTML. */
export function pageAudiences(html: string): PageAudiences {
  const agentsOnly: string[] = [];
  const visible: string[] = [];
  const walk = (node: T.Node) => {
    if (node.nodeName === '#text') { visible.push((node as T.TextNode).value, ' '); return; }
    if (SKIP.has(node.nodeName)) return;
    const attrs = (node as T.Element).attrs;
    if (attrs?.some((a) => a.name === 'data-visibility' && a.value === 'agents')) {
      const text: string[] = [];
      textOf(node, text);
      agentsOnly.push(compactText(text.join(' ')));
      return;
    }
    for (const child of (node as T.Element).childNodes ?? []) walk(child);
  };
  walk(parse(html));
  return { agentsOnly: agentsOnly.filter(Boolean), visible: compactText(visible.join('')) };
}

/** Whether a block of the export is agents-only on the page: its text is in an agents-only element and nowhere a person sees it. */
export function agentsOnlyBlock(audiences: PageAudiences, blockText: string): boolean {
  const compact = compactText(blockText);
  if (!compact) return false;
  return audiences.agentsOnly.some((a) => a.includes(compact)) && !audiences.visible.includes(compact);
}

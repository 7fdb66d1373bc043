/**
 * The little Markdown an assistant answer uses, rendered safely: every character of the answer
 * is escaped first, then paragraphs, block quotes, list items, `code`, **bold** and citation
 * marks `[n]` (links to the cited section) are added back. No HTML from an answer ever runs.
 */

/** A citation an answer may point at. */
export interface Citation { n: number; title: string; section: string | null; path: string; url: string }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function inline(text: string, citations: Map<number, Citation>): string {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[(\d{1,2})\]/g, (whole, n: string) => {
      const c = citations.get(Number(n));
      return c ? `<a class="assistant-cite" href="${escape(c.path)}" title="${escape(c.title + (c.section ? ` › ${c.section}` : ''))}">[${n}]</a>` : whole;
    });
}

/** HTML of an answer (Markdown subset) with its citation marks linked. */
export function answerHtml(markdown: string, citations: Citation[]): string {
  const byN = new Map(citations.map((c) => [c.n, c]));
  return markdown.split(/\n{2,}/).filter((b) => b.trim()).map((block) => {
    const lines = block.split('\n');
    if (lines.every((l) => l.startsWith('>'))) return `<blockquote>${inline(lines.map((l) => l.replace(/^> ?/, '')).join('\n'), byN)}</blockquote>`;
    if (lines.every((l) => /^\s*([-*]|\d+\.)\s/.test(l))) return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*([-*]|\d+\.)\s/, ''), byN)}</li>`).join('')}</ul>`;
    if (block.startsWith('```')) return `<pre><code>${escape(block.replace(/^```\w*\n?|```$/g, ''))}</code></pre>`;
    return `<p>${inline(block, byN)}</p>`;
  }).join('');
}

/**
 * The page title is shown once, by the template's own `<h1>` (it carries the description and
 * the page actions on every theme). Many pages also start their MDX with `# Title`; when that
 * leading heading says the same as the title, the body's copy is dropped, so neither the page
 * nor its search excerpt repeat the title. A leading `# Heading` that differs from the title
 * (e.g. frontmatter `title: Intro` over `# Welcome`) is kept.
 */

/** A body starting with an `<h1>` (leading whitespace allowed), as the builder emits it. */
const LEADING_H1 = /^\s*<h1(?:\s[^>]*)?>([\s\S]*?)<\/h1>\s*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain text of an inline HTML fragment: tags and the heading's `#` anchor removed, entities decoded. */
function inlineText(html: string): string {
  return html
    .replace(/<a class="heading-anchor"[^>]*>[\s\S]*?<\/a>/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
      if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `bodyHtml` without a leading `<h1>` whose text equals `title` (runs of spaces ignored, as the Markdown export does). */
export function dropTitleHeading(bodyHtml: string, title: string): string {
  const match = LEADING_H1.exec(bodyHtml);
  if (!match || normalize(inlineText(match[1])) !== normalize(title)) return bodyHtml;
  return bodyHtml.slice(match[0].length);
}

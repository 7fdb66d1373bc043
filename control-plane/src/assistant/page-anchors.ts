/**
 * Section anchors of a published page, read from its HTML: the export's headings carry no ids,
 * and some of its headings are not headings on the page (a `<Tab>` or an `<Accordion>` becomes a
 * heading in the export only), so a citation links to a section only when the page has a
 * heading with that text; otherwise to the nearest earlier one that exists, else the page.
 */

/** Heading text as both sides compare it: no Markdown marks, no tags, lowercase, single spaces. */
export function headingKey(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The headings of a page's HTML that carry an id, in document order: `[key, id]`. */
export function htmlHeadings(html: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of html.matchAll(/<h([1-6])\b([^>]*)>([\s\S]*?)<\/h\1>/gi)) {
    const id = /\bid="([^"]+)"/.exec(m[2])?.[1];
    if (!id) continue;
    const inner = m[3].replace(/<a\b[^>]*class="heading-anchor"[^>]*>[\s\S]*?<\/a>/gi, '').replace(/<[^>]+>/g, ' ');
    out.push([headingKey(decode(inner)), decode(id)]);
  }
  return out;
}

/** Looks up `(heading text, occurrence)` among a page's headings: the id, or undefined. */
export function anchorOf(headings: [string, string][], heading: string, occurrence: number): string | undefined {
  const key = headingKey(heading);
  let seen = 0;
  for (const [k, id] of headings) {
    if (k !== key) continue;
    if (seen === occurrence) return id;
    seen++;
  }
  return undefined;
}

/**
 * Mintlify's custom heading ids: `## My section {#my-anchor}` gives the heading the id
 * `my-anchor` instead of the one made from its text. MDX would read `{#my-anchor}` as a
 * JavaScript expression and fail the page, so before parsing, the marker of an ATX heading
 * (indented at most three spaces, outside fenced code, as Mintlify reads it) becomes an empty
 * expression, `{/*#my-anchor*\/}`, which the outline (outline.ts) takes as the id and removes.
 * Positions stay the source's: only the heading's own line grows, by four characters after its text.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING_ID = /^( {0,3}#{1,6}[ \t].*?)([ \t]+)\{#([A-Za-z0-9_][\w:./-]{0,200})\}([ \t]*)$/;

/** The source with each heading's `{#id}` written as `{/*#id*\/}` (unchanged when it has none). */
export function markHeadingIds(source: string): string {
  if (!source.includes('{#')) return source;
  const lines = source.split('\n');
  let fence: string | undefined;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = undefined;
      continue;
    }
    if (open) { fence = open[1]; continue; }
    const m = HEADING_ID.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!m) continue;
    // The spaces before the marker move after it: the heading's text ends where it did.
    lines[i] = `${m[1]}{/*#${m[3]}*/}${m[2]}${m[4]}${line.endsWith('\r') ? '\r' : ''}`;
    changed = true;
  }
  return changed ? lines.join('\n') : source;
}

const MARKED = /^\/\*#([A-Za-z0-9_][\w:./-]{0,200})\*\/$/;

/** The custom id an expression node of a heading carries (`/*#id*\/`), else undefined. */
export function headingIdOf(expression: string): string | undefined {
  return MARKED.exec(expression.trim())?.[1];
}

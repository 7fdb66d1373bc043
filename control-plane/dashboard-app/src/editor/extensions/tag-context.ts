/**
 * Where the cursor is in MDX, read from the text before it (pure code, no editor state): inside
 * a JSX start tag (which element, whether at an attribute name or inside a value), or after a
 * Markdown link's `](`. The text is usually incomplete while typing, so this is a small scanner,
 * not a parser: quotes and `{…}` in attribute values are skipped so a `>` in them does not end
 * the tag.
 */

/** The cursor inside `<Name …`: at an attribute name (`attr`) or in a value (`value`). */
export type TagContext =
  | { kind: 'attr'; name: string; attrs: string[]; from: number }
  | { kind: 'value'; name: string; attrs: string[]; attr: string; from: number; quote: string };

/**
 * The start tag the end of `text` is in, or null. Offsets are into `text`; `from` is where the
 * word or value being typed starts.
 */
export function tagContext(text: string): TagContext | null {
  let tagStart = -1;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (tagStart < 0) {
      if (c === '<' && /[A-Za-z]/.test(text[i + 1] ?? '')) tagStart = i;
      continue;
    }
    if (c === '"' || c === '\'') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '{') {
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}' && --depth === 0) break;
      }
      if (j >= text.length) return null;
      i = j;
    } else if (c === '>') {
      tagStart = -1;
    } else if (c === '<') {
      tagStart = /[A-Za-z]/.test(text[i + 1] ?? '') ? i : -1;
    }
  }
  if (tagStart < 0) return null;
  const tag = text.slice(tagStart);
  const name = /^<([A-Za-z][\w.]*)/.exec(tag)?.[1];
  if (!name || tag.length === name.length + 1) return null;
  const attrs = [...tag.slice(name.length + 1).replace(/"[^"]*"|'[^']*'|\{[^}]*\}/g, '""').matchAll(/\s([A-Za-z_][\w-]*)(?==|\s|$)/g)].map((m) => m[1]);
  const value = /\s([A-Za-z_][\w-]*)=(["'])([^"']*)$/.exec(tag);
  if (value) return { kind: 'value', name, attrs, attr: value[1], from: text.length - value[3].length, quote: value[2] };
  const attr = /\s([A-Za-z_][\w-]*)?$/.exec(tag);
  if (attr && i >= text.length) return { kind: 'attr', name, attrs: attrs.filter((a) => a !== attr[1]), from: text.length - (attr[1]?.length ?? 0) };
  return null;
}

/** After a Markdown link's `](`: the target typed so far and where it starts, or null. */
export function linkContext(text: string): { target: string; from: number } | null {
  const m = /\]\(([^\s()]*)$/.exec(text);
  return m ? { target: m[1], from: text.length - m[1].length } : null;
}

/** Heading anchors of an MDX text, outside code fences: Markdown headings slugged as GitHub does. */
export function documentHeadings(text: string): { id: string; text: string; depth: number }[] {
  const out: { id: string; text: string; depth: number }[] = [];
  const seen = new Map<string, number>();
  let fence = '';
  for (const line of text.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1].startsWith(fence[0]) && f[1].length >= fence.length) fence = '';
      continue;
    }
    if (fence) continue;
    const h = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = h[2].toLowerCase().replace(/[`*_~[\]()]/g, '').replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s+/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ id: n ? `${base}-${n}` : base, text: h[2], depth: h[1].length });
  }
  return out;
}

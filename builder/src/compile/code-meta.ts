/**
 * Parses a code fence's meta string (the words after the language tag, spec 2.12). Options come
 * in any order and combine freely: `lines`, `wrap`, `expandable`, `highlight={1,3-5}`,
 * `focus={2}`. Every other word is part of the block title; the title is those words joined by
 * single spaces, so `title My File.ts lines` gives the title `title My File.ts`.
 */

/** Options of one code fence. */
export interface CodeMeta {
  lineNumbers: boolean;
  wrap: boolean;
  expandable: boolean;
  /** 1-based line numbers to emphasise. */
  highlight: Set<number>;
  /** 1-based line numbers to focus (the others are dimmed). */
  focus: Set<number>;
  /** Block header title, e.g. a file name; undefined when no free text was given. */
  title?: string;
}

/** Thrown for a malformed `highlight=`/`focus=` value; the caller adds the position. */
export class CodeMetaError extends Error {}

const TOKEN = /(highlight|focus)=(\{[^}]*\}?|\S*)|(\S+)/g;
const RANGE = /^(\d+)(?:-(\d+))?$/;

/** Parses `{1,3-5}` into a set of line numbers; throws {@link CodeMetaError} when malformed. */
export function parseLineSet(option: string, raw: string): Set<number> {
  const inner = /^\{([^}]*)\}$/.exec(raw)?.[1];
  const lines = new Set<number>();
  const parts = inner === undefined ? [] : inner.split(',').map((p) => p.trim());
  const bad = () => new CodeMetaError(`Unexpected \`${option}=${raw}\`; expected line numbers and ranges in braces, e.g. \`${option}={1,3-5}\``);
  if (parts.length === 0 || parts.some((p) => !RANGE.test(p))) throw bad();
  for (const part of parts) {
    const [, from, to] = RANGE.exec(part)!;
    const start = Number(from);
    const end = to === undefined ? start : Number(to);
    if (start < 1 || end < start || end - start > 100_000) throw bad();
    for (let n = start; n <= end; n++) lines.add(n);
  }
  return lines;
}

/** Parses a fence meta string (may be null/empty). */
export function parseCodeMeta(meta: string | null | undefined): CodeMeta {
  const out: CodeMeta = { lineNumbers: false, wrap: false, expandable: false, highlight: new Set(), focus: new Set() };
  const title: string[] = [];
  for (const m of (meta ?? '').matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      const set = parseLineSet(m[1], m[2]);
      for (const n of set) out[m[1] as 'highlight' | 'focus'].add(n);
      continue;
    }
    const word = m[3];
    if (word === 'lines') out.lineNumbers = true;
    else if (word === 'wrap') out.wrap = true;
    else if (word === 'expandable') out.expandable = true;
    else title.push(word);
  }
  if (title.length > 0) out.title = title.join(' ');
  return out;
}

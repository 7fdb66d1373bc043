/**
 * Parses a code fence's meta string (the words after the language tag, spec 2.12), in the forms
 * authors bring from other docs platforms. Options come in any order and combine freely:
 *
 * - `lines`, `wrap`, `expandable`, `diff` (lines starting with `+`/`-` are added/removed lines);
 * - `highlight={1,3-5}`, `highlight="1,3-5"`, `highlight='1,3-5'`, `highlight=1,3-5` (as
 *   Mintlify pages write it), or `{1,3-5}` alone (highlight);
 * - `focus={2}`, `focus="2"`, `focus='2'`, `focus=2,4,5`;
 * - `title="npm install"` or `title='npm install'`.
 *
 * Every other word is part of the block title, and so is a quoted string (`"My file.ts"`):
 * what a quote holds is title text even when it looks like an option (`title="set
 * highlight=on"`). Title parts are joined by single spaces, so `title My File.ts lines` gives the
 * title `title My File.ts`. A quoted string counts only when its closing quote ends a word
 * (`"a b"`, not `"a b"c`); otherwise its quotes are ordinary characters of title words, as
 * are the apostrophes of `Don't panic`.
 */

/** Options of one code fence. */
export interface CodeMeta {
  lineNumbers: boolean;
  wrap: boolean;
  expandable: boolean;
  /** Lines starting with `+` or `-` are shown as added or removed, without that character. */
  diff: boolean;
  /** 1-based line numbers to emphasise. */
  highlight: Set<number>;
  /** 1-based line numbers to focus (the others are dimmed). */
  focus: Set<number>;
  /** Block header title, e.g. a file name; undefined when no free text was given. */
  title?: string;
}

/** Thrown for a malformed `highlight=`/`focus=` value; the caller adds the position. */
export class CodeMetaError extends Error {}

// One token at a time, each ending at a space or the end: a quoted option value, a braced or
// bare option value, a quoted string, line numbers in braces, a word.
const TOKEN = new RegExp([
  String.raw`(highlight|focus|title)=(?:"([^"]*)"|'([^']*)')(?=\s|$)`,
  String.raw`(highlight|focus)=(\{[^}]*\}?|\S*)`,
  String.raw`"([^"]*)"(?=\s|$)|'([^']*)'(?=\s|$)`,
  String.raw`(\{\s*\d[\d\s,-]*\})(?=\s|$)`,
  String.raw`(\S+)`,
].join('|'), 'g');
const RANGE = /^(\d+)(?:-(\d+))?$/;

type LineOption = 'highlight' | 'focus';

/** What `{…}` holds, or undefined when `text` is not wrapped in braces. */
const unbrace = (text: string) => /^\{([^}]*)\}$/.exec(text.trim())?.[1];

/**
 * Parses line numbers and ranges (`1,3-5`) into a set; throws {@link CodeMetaError} naming
 * `written` (the option as the author wrote it) and what was `expected` when malformed.
 */
export function parseLineSet(list: string, written: string, expected: string): Set<number> {
  const lines = new Set<number>();
  const parts = list.split(',').map((p) => p.trim());
  const bad = () => new CodeMetaError(`Unexpected \`${written}\`; expected ${expected}`);
  if (parts.some((p) => !RANGE.test(p))) throw bad();
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
  const out: CodeMeta = { lineNumbers: false, wrap: false, expandable: false, diff: false, highlight: new Set(), focus: new Set() };
  const title: string[] = [];
  const addLines = (option: LineOption, lines: Set<number>) => {
    for (const n of lines) out[option].add(n);
  };
  for (const m of (meta ?? '').matchAll(TOKEN)) {
    const [, quotedName, double, single, bracedName, braced, bareDouble, bareSingle, lineList, word] = m;
    if (quotedName !== undefined) {
      const value = double ?? single;
      const q = double === undefined ? "'" : '"';
      if (quotedName === 'title') title.push(value);
      // Braces inside the quotes are allowed too: `highlight="{1,3}"`.
      else addLines(quotedName as LineOption, parseLineSet(unbrace(value) ?? value, m[0], `line numbers and ranges, e.g. \`${quotedName}=${q}1,3-5${q}\``));
    } else if (bracedName !== undefined) {
      // Braces are optional: `highlight=1` and `focus=2,4,5` are how Mintlify pages write them.
      addLines(bracedName as LineOption, parseLineSet(unbrace(braced) ?? braced, m[0], `line numbers and ranges, e.g. \`${bracedName}={1,3-5}\` or \`${bracedName}=1,3-5\``));
    } else if (bareDouble !== undefined || bareSingle !== undefined) {
      title.push(bareDouble ?? bareSingle);
    } else if (lineList !== undefined) {
      addLines('highlight', parseLineSet(unbrace(lineList)!, lineList, 'line numbers and ranges in braces, e.g. `{1,3-5}`'));
    } else if (word === 'lines') out.lineNumbers = true;
    else if (word === 'wrap') out.wrap = true;
    else if (word === 'expandable') out.expandable = true;
    else if (word === 'diff') out.diff = true;
    else title.push(word);
  }
  const text = title.filter((part) => part !== '').join(' ');
  if (text !== '') out.title = text;
  return out;
}

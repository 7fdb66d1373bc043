/**
 * Measures a docs corpus (generated or real): page sizes, code fences per page and their
 * languages, and how many pages use each component, so a generated corpus can be checked against
 * the real one it imitates and a benchmark can say what it ran on.
 */

/** One page of a corpus. */
export interface CorpusFile { path: string; source: string }

/** What {@link corpusStats} measures. */
export interface CorpusStats {
  pages: number;
  /** Page sizes in bytes of MDX. */
  bytes: { median: number; p90: number; max: number; total: number };
  /** Fenced code blocks. */
  fences: { perPage: number; max: number; total: number };
  /** Fence tag → blocks (`(none)` for no tag), most frequent first. */
  languages: Array<[string, number]>;
  /** Component name → pages using it, most used first. */
  components: Array<[string, number]>;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : 0);

/** The tags of the fenced code blocks of an MDX/Markdown page (`''` for none). */
export function fenceTags(source: string): string[] {
  const tags: string[] = [];
  let open: { char: string; length: number } | undefined;
  for (const line of source.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    if (!open) {
      open = { char: m[1][0], length: m[1].length };
      tags.push(m[2].trim().split(/\s+/)[0] ?? '');
    } else if (m[1][0] === open.char && m[1].length >= open.length && m[2].trim() === '') {
      open = undefined;
    }
  }
  return tags;
}

/** Names of the JSX components a page uses (capitalised tags outside code fences). */
export function componentNames(source: string): Set<string> {
  const outside = source.replace(/^\s{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s{0,3}\1\s*$/gm, '');
  return new Set([...outside.matchAll(/<([A-Z][A-Za-z0-9.]*)[\s/>]/g)].map((m) => m[1]));
}

/** Statistics of `files`. */
export function corpusStats(files: readonly CorpusFile[]): CorpusStats {
  const sizes = files.map((f) => Buffer.byteLength(f.source)).sort((a, b) => a - b);
  const languages = new Map<string, number>();
  const components = new Map<string, number>();
  let fences = 0;
  let maxFences = 0;
  for (const f of files) {
    const tags = fenceTags(f.source);
    fences += tags.length;
    maxFences = Math.max(maxFences, tags.length);
    for (const tag of tags) languages.set(tag || '(none)', (languages.get(tag || '(none)') ?? 0) + 1);
    for (const name of componentNames(f.source)) components.set(name, (components.get(name) ?? 0) + 1);
  }
  const byCount = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    pages: files.length,
    bytes: { median: percentile(sizes, 0.5), p90: percentile(sizes, 0.9), max: sizes.at(-1) ?? 0, total: sizes.reduce((a, b) => a + b, 0) },
    fences: { perPage: files.length ? fences / files.length : 0, max: maxFences, total: fences },
    languages: byCount(languages),
    components: byCount(components),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** The statistics as a few lines of text. */
export function formatStats(s: CorpusStats): string {
  return [
    `corpus: ${s.pages} pages, ${kb(s.bytes.total)} of MDX; page size median ${kb(s.bytes.median)}, p90 ${kb(s.bytes.p90)}, max ${kb(s.bytes.max)}`,
    `  code fences: ${s.fences.perPage.toFixed(2)} per page, up to ${s.fences.max} on one page (${s.fences.total} in all)`,
    `  fence languages: ${s.languages.map(([lang, n]) => `${lang} ${n}`).join(', ')}`,
    `  pages using each component: ${s.components.map(([name, n]) => `${name} ${n}`).join(', ')}`,
  ].join('\n');
}

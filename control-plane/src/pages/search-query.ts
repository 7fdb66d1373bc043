/**
 * Web-search style queries for page search:
 *   words            every word must match (AND), matching whole words or their prefix ("install" matches "installing")
 *   "a phrase"       the words in this order
 *   -word, -"phrase" pages containing it are excluded
 *   a OR b           either side (binds tighter than the implicit AND: `x a OR b` = x AND (a OR b))
 */
export type Term = { kind: 'word'; value: string } | { kind: 'phrase'; words: string[] };

export interface ParsedQuery {
  /** AND of clauses, each an OR of terms. */
  clauses: Term[][];
  excluded: Term[];
}

/** Lower-cased word tokens of `text` (letters and digits of any script). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function parseQuery(query: string): ParsedQuery {
  const clauses: Term[][] = [];
  const excluded: Term[] = [];
  let pendingOr = false;
  const re = /(-?)"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    if (m[3] === 'OR') { pendingOr = clauses.length > 0; continue; }
    const negative = m[1] === '-' || (m[3]?.startsWith('-') && m[3].length > 1);
    const words = tokenize(m[2] ?? m[3] ?? '');
    if (words.length === 0) { pendingOr = false; continue; }
    const term: Term = m[2] !== undefined && words.length > 1 ? { kind: 'phrase', words } : words.length === 1 ? { kind: 'word', value: words[0] } : { kind: 'phrase', words };
    if (negative) { excluded.push(term); pendingOr = false; continue; }
    if (pendingOr) clauses[clauses.length - 1].push(term);
    else clauses.push([term]);
    pendingOr = false;
  }
  return { clauses, excluded };
}

/** How many times `term` occurs in `tokens`. */
export function countMatches(term: Term, tokens: string[]): number {
  let n = 0;
  if (term.kind === 'word') {
    for (const t of tokens) if (t === term.value || (term.value.length >= 3 && t.startsWith(term.value))) n++;
    return n;
  }
  outer: for (let i = 0; i + term.words.length <= tokens.length; i++) {
    for (let j = 0; j < term.words.length; j++) if (tokens[i + j] !== term.words[j]) continue outer;
    n++;
  }
  return n;
}

/** Every word a query looks for (for narrowing candidates with the text index). */
export function positiveWords(q: ParsedQuery): string[] {
  return [...new Set(q.clauses.flat().flatMap((t) => (t.kind === 'word' ? [t.value] : t.words)))];
}

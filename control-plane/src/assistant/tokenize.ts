/**
 * The assistant's tokenizer: lowercase words of letters and digits (Unicode), English stop words
 * dropped, and a light suffix stemmer so "launches", "launched" and "launching" meet "launch".
 * Identifiers keep their parts too: `Retry-After` gives "retry" and "after", `dryRun` gives
 * "dryrun", "dry" and "run", so a question in plain words finds a page that writes code.
 */

const STOP_WORDS = new Set(('a an and are as at be but by can do does for from how i if in into is it its me my of on or ' +
  'so than that the their them then there these they this to was we what when where which who why will with you your ' +
  'should would could i\'m im am has have had not no yes our us about any some').split(' '));

/** Strips common English inflections; deliberately small (no dictionary), applied to index and query alike. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('es') && /(ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = undouble(w.slice(0, -2));
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('y')) w = w.slice(0, -1) + 'i';
  return w;
}

function undouble(w: string): string {
  return /([^aeiouslz])\1$/.test(w) ? w.slice(0, -1) : w;
}

const SEPARATOR = /[^\p{L}\p{N}'’]+/u;
const CAMEL = /\p{Ll}\p{Lu}/u;

/** Lowercased word → its term ('' for a stop word): a site's vocabulary is small next to its word count. */
const terms = new Map<string, string>();

function term(lower: string): string {
  let t = terms.get(lower);
  if (t === undefined) {
    t = STOP_WORDS.has(lower) || lower.length >= 40 ? '' : stem(lower);
    if (terms.size > 500_000) terms.clear();
    terms.set(lower, t);
  }
  return t;
}

/** Index terms of `text`, in order (repeats kept: they are term frequencies). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  // One native split is several times faster than matching word by word on large sites.
  for (const piece of text.split(SEPARATOR)) {
    if (!piece) continue;
    const quote = piece.search(/['’]/);
    const raw = quote > 0 ? piece.slice(0, quote) : quote === 0 ? piece.replace(/^['’]+/, '').replace(/['’].*$/, '') : piece;
    if (!raw) continue;
    const t = term(raw.toLowerCase());
    if (t) out.push(t);
    if (CAMEL.test(raw)) {
      for (const part of raw.split(/(?<=\p{Ll})(?=\p{Lu})/u)) {
        const p = part.length > 1 ? term(part.toLowerCase()) : '';
        if (p) out.push(p);
      }
    }
  }
  return out;
}

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

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Index terms of `text`, in order (repeats kept: they are term frequencies). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0].replace(/['’].*$/, '');
    const parts = raw.split(/(?<=\p{Ll})(?=\p{Lu})/u);
    const lower = raw.toLowerCase();
    if (!STOP_WORDS.has(lower) && lower.length < 40) out.push(stem(lower));
    if (parts.length > 1) {
      for (const part of parts) {
        const p = part.toLowerCase();
        if (!STOP_WORDS.has(p) && p.length > 1) out.push(stem(p));
      }
    }
  }
  return out;
}

import type { Document } from 'bson';
import { valuesAtPath } from './bson-values.ts';
import type { Collection } from './collection.ts';
import { MongoCommandError } from './errors.ts';
import { isTextIndex } from './index-keys.ts';

/** The parsed `$search` string. */
interface TextQuery {
  terms: string[];
  negated: string[];
  phrases: string[];
}

// mongod's English stop words, abridged to the common ones.
const STOP_WORDS = new Set(
  ('a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves then there these they ' +
    'this those through to too under until up very was we were what when where which while who whom why will with you your ' +
    'yours yourself yourselves').split(' '),
);

/** A light English stemmer (plural and -ing/-ed endings), applied to documents and queries alike. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}i`;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    const base = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && base.length >= 3 && /[aeiouy]/.test(base)) return base;
  }
  return w;
}

/** Lowercased words of a string, without stop words, stemmed. */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w)).map(stem);
}

/** Splits `$search` into terms (OR), `-negated` terms and `"quoted phrases"` (AND), as mongod does. */
export function parseSearch(search: string): TextQuery {
  const phrases: string[] = [];
  const negated: string[] = [];
  const terms: string[] = [];
  const rest = search.replace(/(-?)"([^"]*)"?/g, (_m, neg: string, phrase: string) => {
    if (!neg && phrase.trim()) phrases.push(phrase.toLowerCase());
    if (!neg) terms.push(...tokenize(phrase));
    return ' ';
  });
  for (const raw of rest.split(/\s+/).filter(Boolean)) {
    if (raw.startsWith('-')) negated.push(...tokenize(raw.slice(1)));
    else terms.push(...tokenize(raw));
  }
  return { terms: [...new Set(terms)], negated, phrases };
}

function stringsIn(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) stringsIn(v, out);
  }
}

/**
 * Scores one field's text with mongod's formula: each further occurrence of a term counts half
 * as much as the previous one, scaled by how much of the field the term makes up and by the
 * field's weight; a field that is exactly the term gets a 10% bonus.
 */
function scoreField(text: string, weight: number, scores: Map<string, number>): void {
  const tokens = tokenize(text);
  if (tokens.length === 0) return;
  const stats = new Map<string, { count: number; freq: number; exp: number }>();
  for (const t of tokens) {
    const s = stats.get(t) ?? { count: 0, freq: 0, exp: 0 };
    s.exp = s.exp ? s.exp * 2 : 1;
    s.count += 1;
    s.freq += 1 / s.exp;
    stats.set(t, s);
  }
  const whole = text.trim().toLowerCase();
  for (const [term, s] of stats) {
    const coeff = (0.5 * s.count) / tokens.length + 0.5;
    const adjustment = whole === term ? 1.1 : 1;
    scores.set(term, (scores.get(term) ?? 0) + weight * s.freq * coeff * adjustment);
  }
}

/**
 * Evaluates `{ $search }` against the collection's text index: returns each matching document
 * with its score. OR across terms, every phrase required, any negated term excludes.
 */
export function textSearch(coll: Collection | undefined, text: Document): Map<Document, number> {
  const index = coll?.indexes.find(isTextIndex);
  if (!coll || !index) throw new MongoCommandError(27, 'IndexNotFound', 'text index required for $text query');
  if (typeof text.$search !== 'string') throw new MongoCommandError(2, 'BadValue', '$search needs a String');
  const query = parseSearch(text.$search);
  const weights = (index.weights ?? {}) as Document;
  const results = new Map<Document, number>();
  for (const doc of coll.docs.values()) {
    const termScores = new Map<string, number>();
    const raw: string[] = [];
    for (const [field, weight] of Object.entries(weights)) {
      const strings: string[] = [];
      if (field === '$**') stringsIn(doc, strings);
      else for (const v of valuesAtPath(doc, field)) stringsIn(v, strings);
      for (const s of strings) scoreField(s, Number(weight), termScores);
      raw.push(...strings.map((s) => s.toLowerCase()));
    }
    if (query.negated.some((t) => termScores.has(t))) continue;
    if (!query.phrases.every((p) => raw.some((s) => s.includes(p)))) continue;
    let score = 0;
    for (const t of query.terms) score += termScores.get(t) ?? 0;
    if (score > 0) results.set(doc, score);
  }
  return results;
}

/** Splits a filter into its `$text` clause (top level or inside a top-level `$and`) and the rest. */
export function extractText(filter: Document | undefined): { text?: Document; rest: Document | undefined } {
  if (!filter) return { rest: filter };
  if (filter.$text) {
    const { $text, ...rest } = filter;
    return { text: $text as Document, rest };
  }
  if (Array.isArray(filter.$and)) {
    const at = filter.$and.findIndex((c: Document) => c && c.$text);
    if (at >= 0) {
      const and = [...filter.$and];
      const [clause] = and.splice(at, 1);
      const rest: Document = { ...filter, $and: and };
      if (and.length === 0) delete rest.$and;
      return { text: clause.$text as Document, rest };
    }
  }
  return { rest: filter };
}

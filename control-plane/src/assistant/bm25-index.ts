/**
 * A BM25 index over a site's passages (Okapi BM25, k1 = 1.2, b = 0.75). A passage's terms are its
 * text plus its heading (weight 3) and its page's title (weight 2), so a question naming a
 * page's subject ranks that page's passages first. Postings are typed arrays: a query touches only
 * the lists of its own terms, a few milliseconds even at tens of thousands of passages.
 */
import type { Passage, SitePage } from './sections.ts';
import { tokenize } from './tokenize.ts';
import { timeSlicer } from './time-slice.ts';

const K1 = 1.2;
const B = 0.75;
const HEADING_WEIGHT = 3;
const TITLE_WEIGHT = 2;

/** A weighted query term: the last question's words weigh 1, earlier turns' less. */
export interface QueryTerm { term: string; weight: number }

/** One ranked passage. */
export interface Hit { passage: number; score: number }

export interface Bm25Index {
  pages: SitePage[];
  passages: Passage[];
  /** Best passages for the query, at most `perPage` from one page (default 2), `limit` in all. */
  search(query: QueryTerm[], limit: number, perPage?: number): Hit[];
}

/**
 * Builds the index of `passages` (of `pages`). It runs on the site server's event loop, which
 * serves every site: a large site's first question must not stall the others, so the work
 * yields every few milliseconds (time-slice.ts) and requests are answered in between.
 */
export async function buildIndex(pages: SitePage[], passages: Passage[]): Promise<Bm25Index> {
  const termIds = new Map<string, number>();
  const lists: number[][] = [];
  const lengths = new Float64Array(passages.length);
  const titleTerms = pages.map((p) => tokenize(p.title));
  const slice = timeSlicer();
  for (let id = 0; id < passages.length; id++) {
    await slice();
    const passage = passages[id];
    const tf = new Map<number, number>();
    const add = (terms: string[], weight: number) => {
      for (const term of terms) {
        let t = termIds.get(term);
        if (t === undefined) { t = lists.length; termIds.set(term, t); lists.push([]); }
        tf.set(t, (tf.get(t) ?? 0) + weight);
      }
      lengths[id] += terms.length * weight;
    };
    add(tokenize(passage.text), 1);
    if (passage.heading) add(tokenize(passage.heading), HEADING_WEIGHT);
    add(titleTerms[passage.page], TITLE_WEIGHT);
    for (const [t, f] of tf) lists[t].push(id, f);
  }
  const postings = lists.map((l) => Float64Array.from(l));
  const n = passages.length;
  const avg = n ? lengths.reduce((a, b) => a + b, 0) / n : 1;
  const norm = Float64Array.from(lengths, (len) => K1 * (1 - B + (B * len) / avg));

  return {
    pages, passages,
    search(query, limit, perPage = 2) {
      const scores = new Float64Array(n);
      const touched: number[] = [];
      const weights = new Map<number, number>();
      for (const { term, weight } of query) {
        const t = termIds.get(term);
        if (t !== undefined) weights.set(t, (weights.get(t) ?? 0) + weight);
      }
      for (const [t, weight] of weights) {
        const list = postings[t];
        const df = list.length / 2;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = 0; i < list.length; i += 2) {
          const id = list[i];
          const tf = list[i + 1];
          if (scores[id] === 0) touched.push(id);
          scores[id] += weight * idf * ((tf * (K1 + 1)) / (tf + norm[id]));
        }
      }
      touched.sort((a, b) => scores[b] - scores[a] || a - b);
      const hits: Hit[] = [];
      const fromPage = new Map<number, number>();
      for (const id of touched) {
        const page = passages[id].page;
        const count = fromPage.get(page) ?? 0;
        if (count >= perPage) continue;
        fromPage.set(page, count + 1);
        hits.push({ passage: id, score: scores[id] });
        if (hits.length >= limit) break;
      }
      return hits;
    },
  };
}

/**
 * The query of a conversation: the last user message's terms at weight 1, earlier user messages'
 * at 0.3 each (a follow-up such as "and over the limit?" keeps its subject).
 */
export function conversationQuery(userMessages: string[]): QueryTerm[] {
  const out: QueryTerm[] = [];
  userMessages.forEach((text, i) => {
    const weight = i === userMessages.length - 1 ? 1 : 0.3;
    for (const term of tokenize(text)) out.push({ term, weight });
  });
  return out;
}

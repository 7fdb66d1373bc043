/**
 * A BM25 index over a site's passages (Okapi BM25, k1 = 1.2, b = 0.75). A passage's terms are its
 * text plus its heading (weight 3) and its page's title (weight 2), so a question naming a
 * page's subject ranks that page's passages first. Postings are typed arrays: a query touches only
 * the lists of its own terms, a few milliseconds even at tens of thousands of passages.
 *
 * A site's next index reuses what its last one analysed (`IndexMemory`): a page whose URL, title
 * and Markdown are the same keeps its passages and their term counts, so a one-page edit of a
 * 10,000-page site splits and tokenizes one page, and only the postings are put together again.
 */
import { detachedStrings } from '@folio/builder';
import { pagePassages, type Passage, type SitePage } from './sections.ts';
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

/** One page's passages and their terms, valid while the page's title and Markdown are the same. */
interface PageTerms {
  title: string;
  markdown: string;
  /** Its passages (their `page` is set by each index that holds them). */
  passages: Array<Omit<Passage, 'page'>>;
  /** Passage k's (term id, weighted count) pairs are `pairs[starts[k]]` up to `pairs[starts[k + 1]]`. */
  starts: Int32Array;
  pairs: Int32Array;
  /** Weighted term count of each passage. */
  lengths: Float64Array;
}

/**
 * What a site's last index build analysed, for its next: term ids (only ever added, so a kept
 * page's pairs stay valid) and each page's terms by URL. One per site; a build that is stopped
 * halfway leaves the pages it analysed here for the next one.
 */
export class IndexMemory {
  readonly termIds = new Map<string, number>();
  readonly pages = new Map<string, PageTerms>();
  /** Pages split and tokenized into this memory so far (the others were reused). */
  analysed = 0;

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) { id = this.termIds.size; this.termIds.set(term, id); }
    return id;
  }
}

/** Splits and tokenizes one page. Its strings are copies: kept across builds, they must not hold the whole site's text. */
function analyse(page: SitePage, memory: IndexMemory): PageTerms {
  const found = pagePassages(page, 0);
  const texts = detachedStrings(found.flatMap((p) => [p.text, p.heading ?? '']));
  const passages = found.map((p, k) => ({ ...(p.heading === undefined ? {} : { heading: texts[2 * k + 1] }), occurrence: p.occurrence, text: texts[2 * k] }));
  const titleTerms = tokenize(page.title).map((term) => memory.termId(term));
  const starts = new Int32Array(passages.length + 1);
  const lengths = new Float64Array(passages.length);
  const pairs: number[] = [];
  passages.forEach((passage, k) => {
    const tf = new Map<number, number>();
    const add = (ids: readonly number[], weight: number) => {
      for (const id of ids) tf.set(id, (tf.get(id) ?? 0) + weight);
      lengths[k] += ids.length * weight;
    };
    add(tokenize(passage.text).map((term) => memory.termId(term)), 1);
    if (passage.heading) add(tokenize(passage.heading).map((term) => memory.termId(term)), HEADING_WEIGHT);
    add(titleTerms, TITLE_WEIGHT);
    for (const [id, f] of tf) pairs.push(id, f);
    starts[k + 1] = pairs.length;
  });
  return { title: page.title, markdown: page.markdown, passages, starts, pairs: Int32Array.from(pairs), lengths };
}

/**
 * Builds the index of `pages`, reusing and updating `memory` (a fresh one analyses every page).
 * It runs on the site server's event loop, which serves every site: a large site's first question
 * must not stall the others, so the work yields every few milliseconds (time-slice.ts) and
 * requests are answered in between; `signal` stops it at the next yield.
 */
export async function buildIndex(pages: SitePage[], memory = new IndexMemory(), signal?: AbortSignal): Promise<Bm25Index> {
  signal?.throwIfAborted();
  const slice = timeSlicer();
  const yieldNow = async () => {
    const wait = slice();
    if (wait) { await wait; signal?.throwIfAborted(); }
  };
  const analysed: PageTerms[] = [];
  for (const page of pages) {
    await yieldNow();
    let terms = memory.pages.get(page.url);
    if (terms && terms.title === page.title && terms.markdown === page.markdown) terms.markdown = page.markdown; // this text's copy: the last one's can go
    else { memory.pages.set(page.url, terms = analyse(page, memory)); memory.analysed++; }
    analysed.push(terms);
  }
  if (memory.pages.size > pages.length) {
    const urls = new Set(pages.map((p) => p.url));
    for (const url of memory.pages.keys()) if (!urls.has(url)) memory.pages.delete(url);
  }

  // Postings, term by term: counted first, then filled in passage order (one array for all terms).
  const terms = memory.termIds.size;
  const offsets = new Int32Array(terms + 1);
  let n = 0;
  for (const page of analysed) {
    const { pairs } = page;
    for (let j = 0; j < pairs.length; j += 2) offsets[pairs[j] + 1]++;
    n += page.passages.length;
  }
  for (let t = 0; t < terms; t++) offsets[t + 1] += offsets[t];
  const ids = new Int32Array(offsets[terms]);
  const tfs = new Int32Array(offsets[terms]);
  const next = offsets.slice(0, terms);
  const passages: Passage[] = new Array(n);
  const lengths = new Float64Array(n);
  let id = 0;
  for (let p = 0; p < analysed.length; p++) {
    await yieldNow();
    const page = analysed[p];
    for (let k = 0; k < page.passages.length; k++, id++) {
      passages[id] = { page: p, ...page.passages[k] };
      lengths[id] = page.lengths[k];
      for (let j = page.starts[k]; j < page.starts[k + 1]; j += 2) {
        const at = next[page.pairs[j]]++;
        ids[at] = id;
        tfs[at] = page.pairs[j + 1];
      }
    }
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += lengths[i];
  const avg = n ? total / n : 1;
  const norm = Float64Array.from(lengths, (len) => K1 * (1 - B + (B * len) / avg));

  return {
    pages, passages,
    search(query, limit, perPage = 2) {
      const scores = new Float64Array(n);
      const touched: number[] = [];
      const weights = new Map<number, number>();
      for (const { term, weight } of query) {
        const t = memory.termIds.get(term);
        if (t !== undefined && t < terms) weights.set(t, (weights.get(t) ?? 0) + weight);
      }
      for (const [t, weight] of weights) {
        const df = offsets[t + 1] - offsets[t];
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = offsets[t]; i < offsets[t + 1]; i++) {
          const passage = ids[i];
          const tf = tfs[i];
          if (scores[passage] === 0) touched.push(passage);
          scores[passage] += weight * idf * ((tf * (K1 + 1)) / (tf + norm[passage]));
        }
      }
      touched.sort((a, b) => scores[b] - scores[a] || a - b);
      const hits: Hit[] = [];
      const fromPage = new Map<number, number>();
      for (const passage of touched) {
        const page = passages[passage].page;
        const count = fromPage.get(page) ?? 0;
        if (count >= perPage) continue;
        fromPage.set(page, count + 1);
        hits.push({ passage, score: scores[passage] });
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

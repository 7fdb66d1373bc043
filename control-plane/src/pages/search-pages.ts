/**
 * Page search: the text index narrows candidates, then the web-search syntax (search-query.ts) is
 * applied exactly and results are ranked: title matches weigh 10, description 4, body 1 (body
 * counts capped so long pages don't win on length alone); ties go to the shorter path.
 */
import type { Models } from '../db/models/index.ts';
import { countMatches, parseQuery, positiveWords, tokenize, type Term } from './search-query.ts';

export interface SearchResult { path: string; title: string; snippet: string; description: string }

const SNIPPET_CHARS = 160;

function snippetFor(text: string, terms: Term[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const needle = t.kind === 'word' ? t.value : t.words.join(' ');
    const i = lower.search(new RegExp(`(^|[^\\p{L}\\p{N}])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u'));
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at < 0 ? 0 : at - 40);
  const raw = text.slice(start, start + SNIPPET_CHARS).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${raw}${start + SNIPPET_CHARS < text.length ? '…' : ''}`;
}

export async function searchPages(m: Models, projectId: string, version: string, query: string, limit: number): Promise<SearchResult[]> {
  const q = parseQuery(query);
  if (q.clauses.length === 0) return [];
  const words = positiveWords(q);
  const candidates = await m.Page.find(
    { project_id: projectId, version, $text: { $search: words.join(' ') } },
    { path: 1, title: 1, description: 1, search_text: 1 },
  ).limit(2000).lean();
  const scored: { score: number; page: (typeof candidates)[number] }[] = [];
  for (const page of candidates) {
    const fields = [tokenize(page.title ?? ''), tokenize(page.description ?? ''), tokenize(page.search_text ?? '')];
    const all = fields.flat();
    if (q.excluded.some((t) => countMatches(t, all) > 0)) continue;
    let score = 0;
    let ok = true;
    for (const clause of q.clauses) {
      let clauseScore = 0;
      for (const term of clause) {
        clauseScore += countMatches(term, fields[0]) * 10 + countMatches(term, fields[1]) * 4 + Math.min(10, countMatches(term, fields[2]));
      }
      if (clauseScore === 0) { ok = false; break; }
      score += clauseScore;
    }
    if (ok) scored.push({ score, page });
  }
  scored.sort((a, b) => b.score - a.score || a.page.path.length - b.page.path.length || a.page.path.localeCompare(b.page.path));
  const terms = q.clauses.flat();
  return scored.slice(0, limit).map(({ page }) => ({
    path: page.path, title: page.title ?? '', description: page.description ?? '',
    snippet: snippetFor(page.search_text || page.description || '', terms),
  }));
}

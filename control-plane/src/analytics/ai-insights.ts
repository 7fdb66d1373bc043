/**
 * AI and LLM insights (spec 2.8), from the rollups (analytics/rollup-window.ts, analytics/rollup-days.ts), else
 * aggregated from raw events in one pass. Bots are always counted: AI traffic is bot traffic.
 */
import { EXPORT_KINDS } from '../db/models/analytics-event.ts';
import type { Models } from '../db/models/index.ts';
import type { Window } from './query-params.ts';
import { byName } from './rollup-breakdown.ts';
import { countsIn } from './rollup-days.ts';
import { counter, sumMap } from './rollup-overview.ts';
import { rollupsCover, type ReadOptions } from './rollup-window.ts';

export interface AiInput extends Window { projectId: string; limit: number }

/**
 * `crawlers` and `pages` count reads by AI families (page views and Markdown exports; a page's
 * `.md` counts for that page); `exports` always lists the three kinds (`llms_txt`,
 * `llms_full_txt`, `markdown`) fetched by anyone; `usage.ai_referrals` counts page views whose
 * channel is AI (people arriving from AI chat tools); `crawler_views` is the sum of `crawlers`.
 */
export async function aiInsights(m: Models, q: AiInput, opts: ReadOptions = {}) {
  return shapeAi(q, !opts.raw && rollupsCover(q) ? await aiFromRollups(m, q) : await rawAi(m, q));
}

/** What the insights are made of: views per AI family and per page, sorted, and plain counts. */
interface AiParts { crawlers: [string, number][]; pages: [string, number][]; exports: Map<string, number>; referrals: number; opens: number; messages: number }

async function rawAi(m: Models, q: AiInput): Promise<AiParts> {
  const aiRead = { ai_family: { $ne: null }, $or: [{ kind: 'page_view' }, { kind: 'export', export_kind: 'markdown' }] };
  const [f] = await m.AnalyticsEvent.aggregate([
    { $match: { project_id: q.projectId, ts: { $gte: q.from, $lt: q.to } } },
    {
      $facet: {
        crawlers: [{ $match: aiRead }, { $group: { _id: '$ai_family', views: { $sum: 1 } } }, { $sort: { views: -1, _id: 1 } }],
        pages: [{ $match: { ...aiRead, path: { $ne: null } } }, { $group: { _id: '$path', views: { $sum: 1 } } }, { $sort: { views: -1, _id: 1 } }, { $limit: q.limit }],
        exports: [{ $match: { kind: 'export' } }, { $group: { _id: '$export_kind', count: { $sum: 1 } } }],
        usage: [{
          $group: {
            _id: null,
            referrals: { $sum: { $cond: [{ $and: [{ $eq: ['$kind', 'page_view'] }, { $eq: ['$channel', 'AI'] }] }, 1, 0] } },
            opens: { $sum: { $cond: [{ $eq: ['$kind', 'assistant_open'] }, 1, 0] } },
            messages: { $sum: { $cond: [{ $eq: ['$kind', 'assistant_message'] }, 1, 0] } },
          },
        }],
      },
    },
  ]);
  const u = f.usage[0] ?? { referrals: 0, opens: 0, messages: 0 };
  return {
    crawlers: (f.crawlers as { _id: string; views: number }[]).map((r) => [r._id, r.views]),
    pages: (f.pages as { _id: string; views: number }[]).map((r) => [r._id, r.views]),
    exports: new Map((f.exports as { _id: string; count: number }[]).map((r) => [r._id, r.count])),
    referrals: u.referrals,
    opens: u.opens,
    messages: u.messages,
  };
}

/** The same parts from the rollups, ordered as the raw aggregation orders them. */
async function aiFromRollups(m: Models, q: AiInput): Promise<AiParts> {
  const crawlers = new Map<string | null, number>();
  const pages = new Map<string | null, number>();
  const parts: AiParts = { crawlers: [], pages: [], exports: new Map(), referrals: 0, opens: 0, messages: 0 };
  const { hours, days } = await countsIn(m, q.projectId, q, ['c', 'air', 'aip']);
  for (const r of [...hours, ...days]) {
    sumMap(crawlers, r.air);
    sumMap(pages, r.aip);
    for (const kind of EXPORT_KINDS) parts.exports.set(kind, (parts.exports.get(kind) ?? 0) + counter(r.c, kind));
    parts.referrals += counter(r.c, 'referrals');
    parts.opens += counter(r.c, 'opens');
    parts.messages += counter(r.c, 'messages');
  }
  const ranked = (map: Map<string | null, number>) => ([...map] as [string, number][]).sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
  parts.crawlers = ranked(crawlers);
  parts.pages = ranked(pages).slice(0, q.limit);
  return parts;
}

function shapeAi(q: AiInput, p: AiParts) {
  const exports = EXPORT_KINDS.map((kind) => ({ kind, count: p.exports.get(kind) ?? 0 }));
  return {
    range: { from: q.from.toISOString(), to: q.to.toISOString() },
    crawlers: p.crawlers.slice(0, q.limit).map(([family, views]) => ({ family, views })),
    pages: p.pages.map(([path, views]) => ({ path, views })),
    exports,
    usage: {
      llm_exports: exports.reduce((s, e) => s + e.count, 0),
      ai_referrals: p.referrals,
      crawler_views: p.crawlers.reduce((s, c) => s + c[1], 0),
      assistant_opens: p.opens,
      assistant_messages: p.messages,
    },
  };
}

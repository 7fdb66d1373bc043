/** AI and LLM insights (spec 2.8), aggregated in one pass. Bots are always counted: AI traffic is bot traffic. */
import { EXPORT_KINDS } from '../db/models/analytics-event.ts';
import type { Models } from '../db/models/index.ts';
import type { Window } from './query-params.ts';

export interface AiInput extends Window { projectId: string; limit: number }

/**
 * `crawlers` and `pages` count reads by AI families (page views and Markdown exports; a page's
 * `.md` counts for that page); `exports` always lists the three kinds (`llms_txt`,
 * `llms_full_txt`, `markdown`) fetched by anyone; `usage.ai_referrals` counts page views whose
 * channel is AI (people arriving from AI chat tools); `crawler_views` is the sum of `crawlers`.
 */
export async function aiInsights(m: Models, q: AiInput) {
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
  const crawlers = (f.crawlers as { _id: string; views: number }[]).map((r) => ({ family: r._id, views: r.views }));
  const exportCounts = new Map<string, number>((f.exports as { _id: string; count: number }[]).map((r) => [r._id, r.count]));
  const exports = EXPORT_KINDS.map((kind) => ({ kind, count: exportCounts.get(kind) ?? 0 }));
  const u = f.usage[0] ?? { referrals: 0, opens: 0, messages: 0 };
  return {
    range: { from: q.from.toISOString(), to: q.to.toISOString() },
    crawlers: crawlers.slice(0, q.limit),
    pages: (f.pages as { _id: string; views: number }[]).map((r) => ({ path: r._id, views: r.views })),
    exports,
    usage: {
      llm_exports: exports.reduce((s, e) => s + e.count, 0),
      ai_referrals: u.referrals,
      crawler_views: crawlers.reduce((s, c) => s + c.views, 0),
      assistant_opens: u.opens,
      assistant_messages: u.messages,
    },
  };
}

import type { Document } from 'bson';
import t from 'tap';
import { runPipeline } from '../src/mingo-context.ts';
import { runNative } from '../src/native-pipeline.ts';

/** Events across a DST change (Europe/Berlin, 2026-03-29) and both sides of UTC midnight. */
const KINDS = ['page_view', 'page_view', 'search', 'feedback', 'export'];
const DOCS: Document[] = Array.from({ length: 400 }, (_, i) => {
  const doc: Document = {
    _id: i,
    project_id: i % 7 === 0 ? 'other' : 'p',
    ts: new Date(Date.UTC(2026, 2, 26) + i * 17 * 60_000 + (i % 13) * 1_000),
    kind: KINDS[i % KINDS.length],
    bot: i % 4 === 0,
    visitor: `v${i % 37}`,
    browser: ['Chrome', 'Firefox', 'Safari'][i % 3],
  };
  if (i % 3 === 0) doc.country = ['DE', 'US', 'JP'][i % 9 / 3];
  if (i % 5 === 3) doc.vote = i % 2 ? 'up' : 'down';
  if (i % 6 === 1) doc.ai_family = ['GPTBot', 'ClaudeBot'][i % 2];
  if (doc.kind === 'search') { doc.query = ['install', 'api', 'Install'][i % 3]; doc.result_count = i % 11; }
  if (doc.kind === 'export') doc.export_kind = ['markdown', 'llms_txt'][i % 2];
  if (doc.kind === 'page_view' || doc.kind === 'export') doc.path = `/p${i % 9}`;
  // Arrays, an empty array, a scalar and a missing field for `$unwind` (the rollups' visitor-hours).
  if (i % 4 === 0) doc.tags = [`/p${i % 5}`, `/p${i % 3}`];
  else if (i % 4 === 1) doc.tags = [];
  else if (i % 8 === 2) doc.tags = `/p${i % 5}`;
  return doc;
});

const WINDOW = { project_id: 'p', ts: { $gte: new Date('2026-03-26T10:00:00Z'), $lt: new Date('2026-03-30T00:00:00Z') } };
const byDay = (tz: string, unit = 'day') => ({ $dateTrunc: { date: '$ts', unit, timezone: tz, startOfWeek: 'monday' } });

/** The shapes the analytics queries send (overview facets, breakdowns, AI insights). */
const PIPELINES: Record<string, Document[]> = {
  overview: [{ $match: { ...WINDOW, kind: { $in: ['page_view', 'search', 'feedback'] } } }, { $facet: {
    totals: [{ $match: { bot: false } }, { $group: { _id: null, views: { $sum: { $cond: [{ $eq: ['$kind', 'page_view'] }, 1, 0] } }, up: { $sum: { $cond: [{ $and: [{ $eq: ['$kind', 'feedback'] }, { $eq: ['$vote', 'up'] }] }, 1, 0] } } } }],
    visitors: [{ $match: { kind: 'page_view' } }, { $group: { _id: '$visitor' } }, { $count: 'n' }],
    none: [{ $match: { kind: 'nothing' } }, { $count: 'n' }],
    berlin: [{ $group: { _id: { b: byDay('Europe/Berlin'), v: '$visitor' }, n: { $sum: 1 } } }, { $group: { _id: '$_id.b', views: { $sum: '$n' }, visitors: { $sum: 1 } } }],
    newYorkHours: [{ $group: { _id: byDay('America/New_York', 'hour'), n: { $sum: 1 } } }],
    kathmanduHours: [{ $group: { _id: byDay('Asia/Kathmandu', 'hour'), n: { $sum: 1 } } }],
    weeks: [{ $group: { _id: byDay('Pacific/Auckland', 'week'), n: { $sum: 1 } } }],
    split: [{ $match: { kind: 'page_view' } }, { $group: { _id: { $ifNull: ['$ai_family', { $cond: ['$bot', 'Other bots', 'Humans'] }] }, count: { $sum: 1 } } }],
  } }],
  countries: [{ $match: { ...WINDOW, kind: 'page_view', country: { $ne: null } } }, { $group: { _id: { k: { country: '$country' }, v: '$visitor' } } }, { $group: { _id: '$_id.k', visitors: { $sum: 1 } } }, { $sort: { visitors: -1, '_id.country': 1 } }, { $limit: 2 }],
  searches: [{ $match: { ...WINDOW, kind: 'search' } }, { $group: { _id: '$query', count: { $sum: 1 }, avg: { $avg: '$result_count' } } }, { $sort: { count: -1, _id: 1 } }],
  ai: [{ $match: WINDOW }, { $facet: {
    crawlers: [{ $match: { ai_family: { $ne: null }, $or: [{ kind: 'page_view' }, { kind: 'export', export_kind: 'markdown' }] } }, { $group: { _id: '$ai_family', views: { $sum: 1 } } }, { $sort: { views: -1, _id: 1 } }],
    usage: [{ $group: { _id: null, referrals: { $sum: { $cond: [{ $and: [{ $eq: ['$kind', 'page_view'] }, { $eq: ['$channel', 'AI'] }] }, 1, 0] } } } }],
  } }],
  unwindPairs: [{ $match: WINDOW }, { $unwind: '$tags' }, { $match: { tags: { $in: ['/p1', '/p2', '/p4'] } } }, { $group: { _id: { k: '$tags', v: '$visitor' } } }, { $group: { _id: '$_id.k', visitors: { $sum: 1 } } }, { $sort: { visitors: -1, _id: 1 } }, { $limit: 2 }],
  unwindFacet: [{ $match: WINDOW }, { $facet: {
    total: [{ $unwind: '$tags' }, { $group: { _id: '$visitor' } }, { $count: 'n' }],
    series: [{ $unwind: '$tags' }, { $group: { _id: { b: byDay('Europe/Berlin'), v: '$visitor' } } }, { $group: { _id: '$_id.b', visitors: { $sum: 1 } } }],
  } }],
  // Unwound documents read by $sort, $match and a $group with several fields before new ones are made.
  unwindSortGroup: [{ $match: WINDOW }, { $unwind: '$tags' }, { $sort: { visitor: -1 } }, { $match: { kind: 'page_view' } }, { $group: { _id: { k: '$tags', v: '$visitor' }, n: { $sum: 1 } } }, { $sort: { n: -1, '_id.k': 1, '_id.v': 1 } }],
  skipAndOr: [{ $match: { $or: [{ bot: true }, { kind: 'search' }] } }, { $group: { _id: '$browser', n: { $sum: 1 } } }, { $sort: { _id: -1 } }, { $skip: 1 }],
};

t.test('native aggregation', async (t) => {
  t.test('should give exactly the results of the mingo path for the analytics shapes, across zones and a DST change', async (t) => {
    for (const [name, pipeline] of Object.entries(PIPELINES)) {
      const input = DOCS.filter(() => true);
      const native = runNative(input, pipeline);
      t.ok(native, `${name} runs natively`);
      t.same(native, runPipeline(DOCS, pipeline, () => []), name);
    }
    t.same(DOCS.filter((d) => Object.getPrototypeOf(d) !== Object.prototype), [], 'stored documents keep their prototype');
  });

  t.test('should hand pipelines and documents it cannot judge with certainty back to mingo', async (t) => {
    const cases: [string, Document[], Document[]][] = [
      ['an unknown stage', [{ $project: { a: 1 } }, { $count: 'n' }], DOCS],
      ['no $group or $count (would return stored documents)', [{ $match: { kind: 'search' } }, { $limit: 2 }], DOCS],
      ['a missing group key field', [{ $group: { _id: { c: '$country' }, n: { $sum: 1 } } }], DOCS],
      ['null compared with a missing field', [{ $group: { _id: null, n: { $sum: { $cond: [{ $eq: ['$vote', null] }, 1, 0] } } } }], DOCS],
      ['an array where a value is expected', [{ $group: { _id: '$tags', n: { $sum: 1 } } }], [{ _id: 1, tags: ['a'] }]],
      ['a sort over mixed types', [{ $group: { _id: '$x' } }, { $sort: { _id: 1 } }], [{ _id: 1, x: 'a' }, { _id: 2, x: 3 }]],
      ['$unwind of a dotted path', [{ $unwind: '$a.b' }, { $count: 'n' }], DOCS],
      ['$unwind with options', [{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $count: 'n' }], DOCS],
      ['a variable', [{ $group: { _id: '$$ROOT', n: { $sum: 1 } } }], DOCS],
      ['an accumulator other than $sum and $avg', [{ $group: { _id: null, m: { $max: '$ts' } } }], DOCS],
    ];
    for (const [label, pipeline, docs] of cases) t.equal(runNative(docs, pipeline), undefined, label);
  });

  t.test('should never return or modify the stored documents', async (t) => {
    const docs = [{ _id: 1, a: 'x' }, { _id: 2, a: 'x' }];
    const before = JSON.stringify(docs);
    const out = runNative(docs, [{ $group: { _id: '$a', n: { $sum: 1 } } }])!;
    t.same(out, [{ _id: 'x', n: 2 }]);
    t.equal(JSON.stringify(docs), before);
    t.notOk(docs.includes(out[0] as never));
  });
});

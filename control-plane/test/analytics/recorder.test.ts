import t from 'tap';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import type { Visit } from '../../src/analytics/event-input.ts';
import { startTestApi } from '../helpers/api.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';
const visit = (over: Partial<Visit> = {}): Visit => ({ ip: '81.2.69.142', userAgent: FIREFOX, host: 'docs.example.com', headers: {}, ...over });

t.test('analytics recorder', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const stored = async (projectId: string) => (await m.AnalyticsEvent.collection.find({ project_id: projectId }, { projection: { _id: 0 } }).sort({ ts: 1 }).toArray());

  t.test('should store classified events with no address, User-Agent or cookie', async (t) => {
    const rec = new AnalyticsRecorder(m);
    t.teardown(() => rec.close());
    const at = new Date('2026-03-02T10:00:00Z');
    rec.record({ projectId: 'p-store', kind: 'page_view', path: '/guides', at, visit: visit({ referer: 'https://chatgpt.com/', search: 'utm_campaign=launch&utm_term=docs' }) });
    rec.record({ projectId: 'p-store', kind: 'search', query: 'install', resultCount: 3, at: new Date(at.getTime() + 1000), source: 'beacon', visit: visit() });
    await rec.flush();
    const [view, search] = await stored('p-store');
    t.equal(view.visitor, search.visitor, 'same visitor, same day');
    t.match(view.visitor, /^[A-Za-z0-9_-]{22}$/);
    t.same(view, {
      project_id: 'p-store', ts: at, kind: 'page_view', source: 'server', visitor: view.visitor, hour_key: `p-store|${at.getTime()}`, bot: false,
      browser: 'Firefox', os: 'Linux', device: 'Desktop', channel: 'AI', path: '/guides', referrer: 'chatgpt.com',
      campaign: 'launch', keyword: 'docs', country: 'GB', region: 'ENG', city: 'Newmarket',
    });
    t.same(search, {
      project_id: 'p-store', ts: new Date(at.getTime() + 1000), kind: 'search', source: 'beacon', visitor: view.visitor, hour_key: `p-store|${at.getTime()}`, bot: false,
      browser: 'Firefox', os: 'Linux', device: 'Desktop', channel: 'Direct', country: 'GB', region: 'ENG', city: 'Newmarket', query: 'install', result_count: 3,
    });
    t.notOk(JSON.stringify(await stored('p-store')).includes('81.2.69.142'), 'the address is nowhere in the stored events');
  });

  t.test('should give a visitor a new id each UTC day and per project', async (t) => {
    const rec = new AnalyticsRecorder(m);
    t.teardown(() => rec.close());
    for (const [project, at] of [['p-days', '2026-03-02T23:59:00Z'], ['p-days', '2026-03-02T00:01:00Z'], ['p-days', '2026-03-03T00:01:00Z'], ['p-days-2', '2026-03-02T12:00:00Z']]) {
      rec.record({ projectId: project, kind: 'page_view', path: '/', at: new Date(at), visit: visit() });
    }
    await rec.flush();
    const days = await stored('p-days');
    const other = await stored('p-days-2');
    t.equal(days[0].visitor, days[1].visitor);
    t.not(days[1].visitor, days[2].visitor, 'the salt of the next day gives another id');
    t.not(other[0].visitor, days[0].visitor, 'the same person on another project is another visitor');
    const salts = await m.AnalyticsSalt.find({ _id: { $in: ['2026-03-02', '2026-03-03'] } }).sort({ _id: 1 }).lean();
    t.same(salts.map((s) => [s._id, s.expires_at.toISOString()]), [['2026-03-02', '2026-03-05T00:00:00.000Z'], ['2026-03-03', '2026-03-06T00:00:00.000Z']]);
  });

  t.test('should drop and count events when the buffer is full instead of waiting', async (t) => {
    const rec = new AnalyticsRecorder(m, { maxBuffer: 2, batchSize: 100, flushIntervalMs: 60_000 });
    t.teardown(() => rec.close());
    const results = [1, 2, 3].map(() => rec.record({ projectId: 'p-drop', kind: 'page_view', path: '/', visit: visit() }));
    t.same(results, [true, true, false]);
    t.same(rec.stats(), { received: 3, inserted: 0, dropped: 1, failed: 0, buffered: 2 });
    await rec.flush();
    t.same(rec.stats(), { received: 3, inserted: 2, dropped: 1, failed: 0, buffered: 0 });
    t.equal((await stored('p-drop')).length, 2);
  });

  t.test('should write a full batch without waiting for the timer', async (t) => {
    const rec = new AnalyticsRecorder(m, { batchSize: 3, flushIntervalMs: 3_600_000 });
    t.teardown(() => rec.close());
    for (let i = 0; i < 3; i++) rec.record({ projectId: 'p-batch', kind: 'assistant_message', visit: visit() });
    // No flush() here: the full batch must be written on its own (the timer is an hour away).
    while (rec.stats().inserted < 3) await new Promise((r) => setTimeout(r, 10));
    t.same(rec.stats(), { received: 3, inserted: 3, dropped: 0, failed: 0, buffered: 0 });
    t.same((await stored('p-batch')).map((e) => e.kind), ['assistant_message', 'assistant_message', 'assistant_message']);
  });

  t.test('should count a failed write as failed and keep serving', async (t) => {
    const errors: unknown[] = [];
    const rec = new AnalyticsRecorder(m, { onError: (e) => errors.push(e) });
    t.teardown(() => rec.close());
    rec.record({ projectId: 'p-fail', kind: 'page_view', path: '/', at: new Date('invalid'), visit: visit() });
    await rec.flush();
    t.same([rec.stats().failed, errors.length], [1, 1]);
  });
});

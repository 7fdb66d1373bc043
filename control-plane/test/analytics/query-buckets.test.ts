import t from 'tap';
import { AnalyticsRecorder } from '../../src/analytics/recorder.ts';
import { startTestApi } from '../helpers/api.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

t.test('analytics overview buckets', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const { key } = await api.tenant('pro');
  const recorder = new AnalyticsRecorder(api.cp.m);
  t.teardown(() => recorder.close());

  /** A project with one page view per instant, each by another visitor. */
  const projectWithViews = async (instants: string[]) => {
    const project = await api.project(key);
    instants.forEach((at, i) => recorder.record({ projectId: project.id, kind: 'page_view', path: '/', at: new Date(at), visit: { ip: `192.0.2.${i + 1}`, userAgent: CHROME, host: 'docs.example.com' } }));
    await recorder.flush();
    return project.id as string;
  };
  const series = async (id: string, query: string) => {
    const res = await api.request('GET', `/projects/${id}/analytics/overview?${query}`, { key });
    t.equal(res.status, 200, res.text);
    return res.body.timeseries.map((b: any) => [b.bucket, b.views, b.unique_visitors]);
  };

  t.test('should cut hours and minutes in UTC, with empty buckets as zeros', async (t) => {
    const id = await projectWithViews(['2026-03-02T10:00:00Z', '2026-03-02T10:59:59.999Z', '2026-03-02T12:00:00Z', '2026-03-02T13:00:00Z']);
    t.same(await series(id, 'from=2026-03-02T10:00:00Z&to=2026-03-02T13:00:00Z&unit=hour'), [
      ['2026-03-02T10:00:00.000Z', 2, 2], ['2026-03-02T11:00:00.000Z', 0, 0], ['2026-03-02T12:00:00.000Z', 1, 1],
    ], 'to is exclusive');
    t.same(await series(id, 'from=2026-03-02T10:58:30Z&to=2026-03-02T11:00:00Z&unit=minute'), [
      ['2026-03-02T10:58:00.000Z', 0, 0], ['2026-03-02T10:59:00.000Z', 1, 1],
    ], 'the first bucket is the one holding from; events before from are not counted');
  });

  t.test('should cut days at local midnight east of UTC (Asia/Tokyo)', async (t) => {
    const id = await projectWithViews(['2026-03-01T14:59:59Z', '2026-03-01T15:00:00Z', '2026-03-02T14:59:59Z', '2026-03-02T15:00:00Z']);
    const res = await api.request('GET', `/projects/${id}/analytics/overview?from=2026-03-01T15:00:00Z&to=2026-03-03T15:00:00Z&tz=Asia/Tokyo`, { key });
    t.same(res.body.range, { from: '2026-03-01T15:00:00.000Z', to: '2026-03-03T15:00:00.000Z', tz: 'Asia/Tokyo', unit: 'day' });
    t.same(res.body.timeseries.map((b: any) => [b.bucket, b.views]), [['2026-03-01T15:00:00.000Z', 2], ['2026-03-02T15:00:00.000Z', 1]]);
  });

  t.test('should cut days at local midnight west of UTC (America/New_York)', async (t) => {
    const id = await projectWithViews(['2026-03-02T05:00:00Z', '2026-03-03T04:59:59Z', '2026-03-03T05:00:00Z']);
    t.same(await series(id, 'from=2026-03-02T05:00:00Z&to=2026-03-04T05:00:00Z&tz=America/New_York'), [
      ['2026-03-02T05:00:00.000Z', 2, 2], ['2026-03-03T05:00:00.000Z', 1, 1],
    ]);
  });

  t.test('should follow a DST change in days, hours and weeks', async (t) => {
    // New York springs forward on Sunday 2026-03-08 at 02:00 (EST -5 → EDT -4).
    const id = await projectWithViews(['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-03-09T03:59:59Z', '2026-03-09T04:00:00Z']);
    t.same(await series(id, 'from=2026-03-07T05:00:00Z&to=2026-03-10T04:00:00Z&tz=America/New_York'), [
      ['2026-03-07T05:00:00.000Z', 0, 0], ['2026-03-08T05:00:00.000Z', 3, 3], ['2026-03-09T04:00:00.000Z', 1, 1],
    ], 'the 23-hour Sunday ends at 04:00 UTC');
    t.same(await series(id, 'from=2026-03-08T06:00:00Z&to=2026-03-08T08:00:00Z&tz=America/New_York&unit=hour'), [
      ['2026-03-08T06:00:00.000Z', 1, 1], ['2026-03-08T07:00:00.000Z', 1, 1],
    ], '01:00 EST is followed by 03:00 EDT');
    t.same(await series(id, 'from=2026-03-02T05:00:00Z&to=2026-03-16T04:00:00Z&tz=America/New_York&unit=week'), [
      ['2026-03-02T05:00:00.000Z', 3, 3], ['2026-03-09T04:00:00.000Z', 1, 1],
    ], 'weeks start on Monday at local midnight');
  });

  t.test('should cut months at local midnight across a DST change (Europe/Berlin)', async (t) => {
    const id = await projectWithViews(['2026-02-10T12:00:00Z', '2026-03-31T21:59:59Z', '2026-03-31T22:00:00Z']);
    t.same(await series(id, 'from=2026-01-31T23:00:00Z&to=2026-04-30T22:00:00Z&tz=Europe/Berlin&unit=month'), [
      ['2026-01-31T23:00:00.000Z', 1, 1], ['2026-02-28T23:00:00.000Z', 1, 1], ['2026-03-31T22:00:00.000Z', 1, 1],
    ]);
    t.same(await series(id, 'from=2026-02-01T00:00:00Z&to=2026-04-01T00:00:00Z&unit=month'), [
      ['2026-02-01T00:00:00.000Z', 1, 1], ['2026-03-01T00:00:00.000Z', 2, 2],
    ], 'in UTC the last event belongs to March');
  });

  t.test('should default to the last 30 days in UTC days', async (t) => {
    api.clock.now = new Date('2026-03-31T12:00:00Z');
    const id = await projectWithViews(['2026-03-01T11:59:59Z', '2026-03-01T12:00:00Z', '2026-03-31T11:00:00Z']);
    const res = await api.request('GET', `/projects/${id}/analytics/overview`, { key });
    t.same(res.body.range, { from: '2026-03-01T12:00:00.000Z', to: '2026-03-31T12:00:00.000Z', tz: 'UTC', unit: 'day' });
    t.same([res.body.timeseries.length, res.body.timeseries[0], res.body.timeseries[30], res.body.totals.views],
      [31, { bucket: '2026-03-01T00:00:00.000Z', views: 1, unique_visitors: 1 }, { bucket: '2026-03-31T00:00:00.000Z', views: 1, unique_visitors: 1 }, 2]);
  });

  t.test('should refuse more buckets than the cap, and bad windows and zones', async (t) => {
    const id = await projectWithViews([]);
    const err = async (query: string) => {
      const res = await api.request('GET', `/projects/${id}/analytics/overview?${query}`, { key });
      return [res.status, res.body];
    };
    t.same(await err('from=2025-03-01T00:00:00Z&to=2026-03-01T00:00:00Z&unit=minute'), [400, { error: 'invalid_request', message: 'unit: Unexpected more than 1500 minute buckets between from and to; expected at most 1500: choose a longer unit or a shorter range' }]);
    t.same(await err('from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&unit=minute').then((r) => r[0]), 200, 'a day of minutes fits');
    t.same(await err('tz=Mars/Olympus'), [400, { error: 'invalid_request', message: 'tz: must be an IANA time zone such as UTC or Europe/Berlin' }]);
    t.same(await err('tz=%2B02:00'), [400, { error: 'invalid_request', message: 'tz: must be an IANA time zone such as UTC or Europe/Berlin' }]);
    t.same(await err('unit=year'), [400, { error: 'invalid_request', message: 'unit: must be one of minute, hour, day, week, month' }]);
    t.same(await err('bots=some'), [400, { error: 'invalid_request', message: 'bots: must be one of included, excluded' }]);
    t.same(await err('from=yesterday'), [400, { error: 'invalid_request', message: 'from: must be an ISO 8601 date-time such as 2026-03-01T00:00:00Z' }]);
    t.same(await err('to=2026-02-30T00:00:00Z'), [400, { error: 'invalid_request', message: 'to: must be an ISO 8601 date-time such as 2026-03-01T00:00:00Z' }]);
    t.same(await err('from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z'), [400, { error: 'invalid_request', message: 'from: must be before to' }]);
    t.same(await err('from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z'), [400, { error: 'invalid_request', message: 'from: must be before to' }]);
  });
});

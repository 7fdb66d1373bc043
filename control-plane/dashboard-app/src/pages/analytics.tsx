/**
 * Analytics of a project, read from the dashboard's copies of the `/v1` analytics endpoints: the
 * overview chart and totals, breakdown tables, and AI insights, with range, unit, time zone and bots
 * controls. The controls live in the URL query so a view can be bookmarked and shared.
 */
import { useMemo, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { TimeChart } from '../ui/time-chart.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useProject } from '../ui/use-project.ts';
import { AiInsights, Breakdown } from './analytics-tables.tsx';

const RANGES = [['1', 'Last 24 hours'], ['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days']] as const;
const UNITS = ['hour', 'day', 'week', 'month'] as const;

interface Overview {
  totals: { views: number; searches: number; feedback_up: number; feedback_down: number; unique_visitors: number };
  timeseries: { bucket: string; views: number; unique_visitors: number }[];
}

/** The view's controls, from the URL query with defaults. */
function controls() {
  const q = new URLSearchParams(location.search);
  const days = RANGES.some(([d]) => d === q.get('days')) ? q.get('days')! : '30';
  const unit = (UNITS as readonly string[]).includes(q.get('unit') ?? '') ? q.get('unit')! : days === '1' ? 'hour' : 'day';
  const tz = q.get('tz') || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const bots = q.get('bots') === 'included' ? 'included' : 'excluded';
  return { days, unit, tz, bots };
}

export function AnalyticsPage({ id }: { id: string }) {
  const project = useProject(id);
  const [c, setC] = useState(controls);
  const [now] = useState(() => Date.now());
  const query = useMemo(() => {
    const to = new Date(Math.ceil(now / 60_000) * 60_000);
    const from = new Date(to.getTime() - Number(c.days) * 86_400_000);
    return `from=${from.toISOString()}&to=${to.toISOString()}`;
  }, [c.days, now]);
  const base = `/projects/${encodeURIComponent(id)}/analytics`;
  const overview = useLoad(() => api<Overview>('GET', `${base}/overview?${query}&unit=${c.unit}&tz=${encodeURIComponent(c.tz)}&bots=${c.bots}`), [base, query, c.unit, c.tz, c.bots]);
  const update = (patch: Partial<typeof c>) => {
    const next = { ...c, ...patch };
    setC(next);
    navigate(`${location.pathname}?${new URLSearchParams(next)}`, true);
  };
  // A 404 for a project that loads means this server has no analytics endpoints.
  const missing = overview.error?.status === 404 && Boolean(project.data);
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="analytics" />
      <h1>Analytics</h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()} aria-label="Analytics view">
        <label>Range <select value={c.days} onChange={(e) => update({ days: e.currentTarget.value })}>{RANGES.map(([d, l]) => <option key={d} value={d}>{l}</option>)}</select></label>
        <label>Unit <select value={c.unit} onChange={(e) => update({ unit: e.currentTarget.value })}>{UNITS.map((u) => <option key={u} value={u}>{u}</option>)}</select></label>
        <label>Time zone <input value={c.tz} size={16} onChange={(e) => update({ tz: e.currentTarget.value.trim() || 'UTC' })} /></label>
        <label class="check"><input type="checkbox" checked={c.bots === 'included'} onChange={(e) => update({ bots: e.currentTarget.checked ? 'included' : 'excluded' })} /> <span>Include bots</span></label>
      </form>
      {missing ? <Notice>Analytics are not available on this server yet.</Notice> : <ErrorNotice error={overview.error} />}
      {overview.loading && !overview.data ? <Loading /> : overview.data && <OverviewView o={overview.data} />}
      {overview.data && (
        <>
          <Breakdown base={base} query={`${query}&bots=${c.bots}`} />
          <AiInsights base={base} query={query} />
        </>
      )}
    </>
  );
}

function OverviewView({ o }: { o: Overview }) {
  const times = useMemo(() => o.timeseries.map((p) => new Date(p.bucket).getTime() / 1000), [o]);
  const series = useMemo(() => [
    { label: 'Views', values: o.timeseries.map((p) => p.views), color: '#2563eb' },
    { label: 'Unique visitors', values: o.timeseries.map((p) => p.unique_visitors), color: '#c2410c' },
  ], [o]);
  const t = o.totals;
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <dl class="totals">
        <div><dt>Views</dt><dd>{t.views}</dd></div>
        <div><dt>Unique visitors</dt><dd>{t.unique_visitors}</dd></div>
        <div><dt>Searches</dt><dd>{t.searches}</dd></div>
        <div><dt>Helpful / not</dt><dd>{t.feedback_up} / {t.feedback_down}</dd></div>
      </dl>
      <TimeChart title={`Views and unique visitors per bucket: ${t.views} views in total`} times={times} series={series} />
    </section>
  );
}


/** The breakdown tables (one dimension at a time) and the AI insights of the analytics page. */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { DIMENSION_LABELS, EXPORT_KIND_LABELS, METRIC_LABELS, humanize } from '../shared/labels.ts';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

const DIMENSIONS = Object.keys(DIMENSION_LABELS);
const metric = (name: string) => METRIC_LABELS[name] ?? humanize(name);

/** A cell in words: export kinds by their file names, empty values as "(none)". */
function cell(column: string, value: string | number): string {
  if (value === '') return '(none)';
  if (column === 'kind') return EXPORT_KIND_LABELS[value] ?? String(value);
  return String(value);
}

type Row = Record<string, string | number>;

/** A table of rows whose columns are the rows' keys (the API's row shapes vary by dimension). */
function RowsTable({ rows, caption }: { rows: Row[]; caption: string }) {
  if (!rows.length) return <p class="muted">No data in this range.</p>;
  const cols = Object.keys(rows[0]);
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead><tr>{cols.map((c) => <th key={c} scope="col">{metric(c)}</th>)}</tr></thead>
        <tbody>{rows.map((r, i) => <tr key={i}>{cols.map((c) => <td key={c} class={typeof r[c] === 'number' ? 'num' : undefined}>{cell(c, r[c])}</td>)}</tr>)}</tbody>
      </table>
    </div>
  );
}

export function Breakdown({ base, query }: { base: string; query: string }) {
  const [dimension, setDimension] = useState<string>('pages');
  const data = useLoad(() => api<{ results: Row[] }>('GET', `${base}/breakdown?dimension=${dimension}&${query}`), [base, dimension, query]);
  return (
    <section aria-labelledby="breakdown-title">
      <div class="heading-row">
        <h2 id="breakdown-title">Breakdown</h2>
        <label>By <select value={dimension} onChange={(e) => setDimension(e.currentTarget.value)}>{DIMENSIONS.map((d) => <option key={d} value={d}>{DIMENSION_LABELS[d]}</option>)}</select></label>
      </div>
      <ErrorNotice error={data.error} />
      {data.loading && !data.data ? <Loading /> : data.data && <RowsTable rows={data.data.results} caption={`Breakdown by ${(DIMENSION_LABELS[dimension] ?? dimension).toLowerCase()}`} />}
    </section>
  );
}

interface Ai {
  crawlers: Row[];
  pages: Row[];
  exports: Row[];
  usage: Record<string, number>;
}

export function AiInsights({ base, query }: { base: string; query: string }) {
  const data = useLoad(() => api<Ai>('GET', `${base}/ai?${query}`), [base, query]);
  const ai = data.data;
  return (
    <section aria-labelledby="ai-title">
      <h2 id="ai-title">AI insights</h2>
      <ErrorNotice error={data.error} />
      {data.loading && !ai ? <Loading /> : ai && (
        <>
          <dl class="totals">
            {Object.entries(ai.usage ?? {}).map(([k, v]) => <div key={k}><dt>{metric(k)}</dt><dd>{v}</dd></div>)}
          </dl>
          <h3>AI crawlers</h3>
          <RowsTable rows={ai.crawlers ?? []} caption="AI crawler views by family" />
          <h3>Pages AI reads most</h3>
          <RowsTable rows={ai.pages ?? []} caption="Pages read by AI" />
          <h3>Text exports for AI</h3>
          <RowsTable rows={ai.exports ?? []} caption="Text exports for AI by file" />
        </>
      )}
    </section>
  );
}

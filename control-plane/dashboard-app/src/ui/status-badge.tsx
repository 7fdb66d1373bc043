import { STATUS_LABELS, humanize } from '../shared/labels.ts';

/** A project or deployment status as a coloured word (the word carries the meaning, not the colour). */
export function StatusBadge({ status, failedPages }: { status: string | null | undefined; failedPages?: number | null }) {
  const s = status ?? 'unknown';
  // Live, but not all of it: amber and worded apart from a clean deployment.
  if (s === 'deployed' && failedPages) {
    return <span class="badge badge-partial">deployed with {failedPages} failed {failedPages === 1 ? 'page' : 'pages'}</span>;
  }
  return <span class={`badge badge-${s}`}>{STATUS_LABELS[s] ?? humanize(s)}</span>;
}

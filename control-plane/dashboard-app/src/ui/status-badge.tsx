/** A project or deployment status as a coloured word (the word carries the meaning, not the colour). */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  const s = status ?? 'unknown';
  return <span class={`badge badge-${s}`}>{s}</span>;
}

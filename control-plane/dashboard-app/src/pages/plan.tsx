/** Plan and usage: the entitlements object (spec 2.10) as features and quota meters, and a pending downgrade. */
import { api } from '../api.ts';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

type Feature = { type: 'boolean'; enabled: boolean } | { type: 'quota'; quota: number | null; used: number; remaining: number | null };

interface Plan {
  plan: { id: string; name: string };
  status: string;
  features: Record<string, Feature>;
  pending_plan?: { id: string; name: string } | string | null;
  pending_plan_at?: string | null;
  upgrade_url?: string;
}

const label = (name: string) => name.replace(/^max_/, '').replace(/_/g, ' ');

export function PlanPage() {
  const plan = useLoad(() => api<Plan>('GET', '/plan'), []);
  const p = plan.data;
  if (!p) return <><h1>Plan and usage</h1>{plan.error ? <ErrorNotice error={plan.error} /> : <Loading />}</>;
  const entries = Object.entries(p.features);
  const quotas = entries.filter((e): e is [string, Extract<Feature, { type: 'quota' }>] => e[1].type === 'quota');
  const flags = entries.filter((e): e is [string, Extract<Feature, { type: 'boolean' }>] => e[1].type === 'boolean');
  const pending = typeof p.pending_plan === 'string' ? p.pending_plan : p.pending_plan?.name;
  return (
    <>
      <h1>Plan and usage</h1>
      <p class="lead">Your organization is on the <strong>{p.plan.name}</strong> plan ({p.status}).</p>
      {pending && <Notice tone="warning">Changes to the <strong>{pending}</strong> plan at the end of the billing period{p.pending_plan_at ? `, on ${formatDate(p.pending_plan_at)}` : ''}. Until then every {p.plan.name} feature stays on; usage above the new plan's limits keeps working but nothing new can be added past them.</Notice>}
      <section aria-labelledby="quota-title">
        <h2 id="quota-title">Usage</h2>
        <ul class="meters">
          {quotas.map(([name, q]) => (
            <li key={name}>
              <span id={`q-${name}`}>{label(name)}</span>
              {q.quota === null ? (
                <span class="muted">{q.used} used · unlimited</span>
              ) : (
                <>
                  <meter aria-labelledby={`q-${name}`} min={0} max={q.quota} value={q.used} low={q.quota * 0.8} high={q.quota * 0.95} optimum={0} />
                  <span>{q.used} of {q.quota}{q.remaining === 0 ? ' — limit reached' : ''}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title">Features</h2>
        <ul class="features">
          {flags.map(([name, f]) => <li key={name} class={f.enabled ? 'on' : 'off'}><span aria-hidden="true">{f.enabled ? '✓' : '–'}</span> {label(name)} <span class="sr-only">{f.enabled ? 'included' : 'not included'}</span></li>)}
        </ul>
      </section>
      {p.upgrade_url && <p><a class="button" href={p.upgrade_url} target="_blank" rel="noopener noreferrer">Compare plans and upgrade</a></p>}
    </>
  );
}

/**
 * Plan and usage: the organization's quotas ("1 of 1 used"), what its plan includes, what each
 * plan includes side by side (features the product does not have yet read "coming soon", never
 * "included"), a pending downgrade, and the way to upgrade. Every name comes from the shared
 * label catalogue.
 */
import { api } from '../api.ts';
import { FEATURE_LABELS, PLAN_LABELS, QUOTA_LABELS, featureLabel } from '../shared/labels.ts';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

type Feature = { type: 'boolean'; enabled: boolean } | { type: 'quota'; quota: number | null; used: number; remaining: number | null };
interface PlanRow { id: string; name: string; features: string[]; quotas: Record<string, number | null> }

interface Plan {
  plan: { id: string; name: string };
  status: string;
  features: Record<string, Feature>;
  pending_plan?: { id: string; name: string } | string | null;
  pending_plan_at?: string | null;
  upgrade_url?: string;
  plans?: PlanRow[];
  /** The month's overage lines (also in `GET /v1/me/entitlements`). */
  overage?: { feature: string; period_start: string; period_end: string; credits: number; unit_price_usd: number; amount_usd: number }[];
}

const available = (name: string) => FEATURE_LABELS[name]?.available ?? QUOTA_LABELS[name]?.available ?? true;

/** "1 of 1 used", "3 used of unlimited". */
export function usageText(q: { quota: number | null; used: number }): string {
  return q.quota === null ? `${q.used} used, no limit` : `${q.used} of ${q.quota} used`;
}

/** Plans on which agent credits past the monthly ones keep working, billed at the month's end. */
const CREDIT_OVERAGE_PLANS = ['pro', 'team'];

/** What spends agent credits and what happens past them (src/ai-writing/credits.ts). */
export const CREDITS_NOTE = 'Inline AI suggestions in the editor and writing agent runs spend credits: 1 credit for every 1,000 tokens the model reads and writes, rounded up per call. On Pro and Team, work past the month\'s credits goes on and each extra credit is billed at 0.01 USD at the month\'s end; the count starts again on the 1st (UTC).';

/** A quota's usage line: "3 of 5000 used", "None on your plan", or the credits billed past the cap. */
function quotaLine(name: string, q: { quota: number; used: number; remaining: number | null }, plan: string): string {
  if (q.quota === 0 && q.used === 0) return 'None on your plan';
  if (name === 'agent_credits_monthly' && CREDIT_OVERAGE_PLANS.includes(plan)) {
    return q.used > q.quota ? `${usageText(q)}; ${q.used - q.quota} more billed at 0.01 USD each at the month's end` : usageText(q);
  }
  return `${usageText(q)}${q.remaining === 0 ? '; the limit is reached' : ''}`;
}

/** The month's overage so far: credits past the cap and what they will be billed at the month's end. */
function OverageLine({ line }: { line?: { credits: number; unit_price_usd: number; amount_usd: number; period_end: string } }) {
  if (!line || line.credits === 0) return null;
  return (
    <p id="credits-overage">
      Overage this month: <strong>{line.credits} credit{line.credits === 1 ? '' : 's'}</strong> past the cap at {line.unit_price_usd.toFixed(2)} USD each, <strong>{line.amount_usd.toFixed(2)} USD</strong> so far, billed on {formatDate(line.period_end)}.
    </p>
  );
}

/** A quota in the comparison, whose row already names what it counts. */
function quotaCell(quota: number | null | undefined): string {
  if (quota === undefined) return '–';
  if (quota === null) return 'Unlimited';
  return quota === 0 ? 'None' : String(quota);
}

export function PlanPage() {
  const plan = useLoad(() => api<Plan>('GET', '/plan'), []);
  const p = plan.data;
  if (!p) return <><h1>Plan and usage</h1>{plan.error ? <ErrorNotice error={plan.error} /> : <Loading />}</>;
  const entries = Object.entries(p.features);
  const quotas = entries.filter((e): e is [string, Extract<Feature, { type: 'quota' }>] => e[1].type === 'quota' && available(e[0]));
  const flags = entries.filter((e): e is [string, Extract<Feature, { type: 'boolean' }>] => e[1].type === 'boolean');
  const included = flags.filter(([n, f]) => f.enabled && available(n));
  const soon = flags.filter(([n]) => !available(n));
  const pendingId = typeof p.pending_plan === 'string' ? p.pending_plan : p.pending_plan?.id;
  const pending = pendingId ? (PLAN_LABELS[pendingId] ?? pendingId) : undefined;
  const upgrade = p.upgrade_url && <a class="button" href={p.upgrade_url} target="_blank" rel="noopener noreferrer">Compare plans and upgrade</a>;
  return (
    <>
      <h1>Plan and usage</h1>
      <p class="lead">Your organization is on the <strong>{p.plan.name}</strong> plan{p.status === 'active' ? '' : ` (${p.status})`}. {upgrade}</p>
      {pending && <Notice tone="warning">Changes to the <strong>{pending}</strong> plan at the end of the billing period{p.pending_plan_at ? `, on ${formatDate(p.pending_plan_at)}` : ''}. Until then every {p.plan.name} feature stays on; usage above the new plan's limits keeps working but nothing new can be added past them.</Notice>}
      <section aria-labelledby="quota-title">
        <h2 id="quota-title">Usage</h2>
        <ul class="meters">
          {quotas.map(([name, q]) => (
            <li key={name}>
              <span id={`q-${name}`}>{featureLabel(name)}</span>
              {q.quota === null || (q.quota === 0 && q.used === 0) ? <span class="muted">{q.quota === null ? usageText(q) : quotaLine(name, { ...q, quota: 0 }, p.plan.id)}</span> : (
                <>
                  <meter aria-labelledby={`q-${name}`} min={0} max={Math.max(q.quota, 1)} value={q.used} low={q.quota * 0.8} high={q.quota * 0.95} optimum={0} />
                  <span>{quotaLine(name, { ...q, quota: q.quota }, p.plan.id)}</span>
                </>
              )}
              {name === 'agent_credits_monthly' && <OverageLine line={p.overage?.find((o) => o.feature === name)} />}
              {name === 'agent_credits_monthly' && <p class="muted" id="credits-note">{CREDITS_NOTE}</p>}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title">Your {p.plan.name} plan includes</h2>
        <ul class="features">
          {included.map(([name]) => <li key={name}><strong>{featureLabel(name)}</strong>: {FEATURE_LABELS[name]?.description ?? ''}</li>)}
        </ul>
        {soon.length > 0 && <p class="muted">Coming soon, not available on any plan yet: {soon.map(([n]) => featureLabel(n)).join(', ')}.</p>}
      </section>
      {p.plans && p.plans.length > 0 && <PlanTable plans={p.plans} current={p.plan.id} />}
      {upgrade && <p>{upgrade}</p>}
    </>
  );
}

/** Every plan side by side: quotas, then the features that exist; coming-soon ones are listed apart. */
function PlanTable({ plans, current }: { plans: PlanRow[]; current: string }) {
  const features = Object.keys(FEATURE_LABELS).filter(available);
  const quotas = Object.keys(plans[0].quotas).filter(available);
  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title">What each plan includes</h2>
      {/* Focusable, so keyboard users can scroll it on a narrow screen. */}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Plans compared">
        <table>
          <thead><tr><th scope="col">Feature</th>{plans.map((pl) => <th key={pl.id} scope="col">{pl.name}{pl.id === current ? ' (yours)' : ''}</th>)}</tr></thead>
          <tbody>
            {quotas.map((q) => <tr key={q}><th scope="row">{featureLabel(q)}</th>{plans.map((pl) => <td key={pl.id}>{quotaCell(pl.quotas[q])}</td>)}</tr>)}
            {features.map((f) => (
              <tr key={f}>
                <th scope="row">{featureLabel(f)}</th>
                {plans.map((pl) => <td key={pl.id}>{pl.features.includes(f) ? <><span aria-hidden="true">✓ </span>Included</> : <span class="muted">Not included</span>}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import { randomUUID } from 'node:crypto';
/**
 * The one entitlement resolver: `GET /me/entitlements` and every server-side check read it, so
 * what a client is shown and what the server enforces always agree (quota rule 7).
 */
import { featureLabel, quotaCount } from '../../dashboard-app/src/shared/labels.ts';
import { liveDomainFilter } from '../db/models/domain.ts';
import type { Models, Organization } from '../db/models/index.ts';
import type { PlanId } from '../db/models/organization.ts';
import { AppError, notFound, planRequired } from '../errors.ts';
import { nextPeriodStart, periodStart } from './periods.ts';
import {
  BOOLEAN_FEATURES, LIFETIME_QUOTAS, OVERAGE, OVERAGE_PRICE_USD, PERIOD_QUOTAS, PLAN_NAMES, QUOTAS, planIncludes,
  type BooleanFeature, type LifetimeQuota, type PeriodQuota, type QuotaFeature,
} from './plans.ts';

export type FeatureEntitlement =
  | { type: 'boolean'; enabled: boolean }
  | { type: 'quota'; quota: number | null; used: number; remaining: number | null };

/** The month's overage line: credits used past the cap, billed at the month's end. */
export interface OverageLine {
  feature: 'agent_credits_monthly';
  period_start: string;
  period_end: string;
  credits: number;
  unit_price_usd: number;
  amount_usd: number;
}

export interface Entitlements {
  plan: { id: PlanId; name: string };
  status: string;
  features: Record<string, FeatureEntitlement>;
  /** Added to spec 2.10 (existing fields unchanged): the current month's billed overage. */
  overage: OverageLine[];
}

/** The cap of a quota for this organization: a custom agent credit cap, else the plan table's. */
export function quotaOf(org: Organization, feature: QuotaFeature): number | null {
  if (feature === 'agent_credits_monthly' && typeof org.agent_credits_cap === 'number') return org.agent_credits_cap;
  return QUOTAS[feature][org.plan as PlanId];
}

/** Whether use past the cap is allowed and billed (rule 4): Pro and Team credits, never a custom cap. */
export function hasOverage(org: Organization, feature: PeriodQuota): boolean {
  if (feature === 'agent_credits_monthly' && typeof org.agent_credits_cap === 'number') return false;
  return OVERAGE[feature]?.includes(org.plan as PlanId) ?? false;
}

/**
 * Loads an organization and applies a scheduled downgrade that has come due (quota rule 6:
 * a downgrade takes effect at the end of the billing period).
 */
export async function loadOrganization(m: Models, orgId: string, now: Date): Promise<Organization> {
  const org = await m.Organization.findById(orgId).lean();
  if (!org) throw notFound('organization');
  if (org.pending_plan && org.pending_plan_at && org.pending_plan_at.getTime() <= now.getTime()) {
    const applied = await m.Organization.findOneAndUpdate(
      { _id: orgId, pending_plan: org.pending_plan },
      { $set: { plan: org.pending_plan, pending_plan: null, pending_plan_at: null } },
      { returnDocument: 'after' },
    ).lean();
    return (applied ?? (await m.Organization.findById(orgId).lean()))!;
  }
  return org;
}

async function lifetimeUsage(m: Models, org: Organization, feature: LifetimeQuota, now: Date): Promise<number> {
  switch (feature) {
    case 'max_projects': return m.Project.countDocuments({ org_id: org._id });
    // Pending claims count too (adding one is what the plan limits), until they lapse.
    case 'max_custom_domains': return m.Domain.countDocuments({ org_id: org._id, ...liveDomainFilter(now) });
    case 'max_dashboard_members': {
      // Members plus pending invitations (each holds a seat); the owner's seat counts before it is claimed.
      const [members, invited] = await Promise.all([
        m.Membership.countDocuments({ org_id: org._id }),
        m.Invitation.countDocuments({ org_id: org._id, expires_at: { $gt: now } }),
      ]);
      return Math.max(1, members + invited);
    }
  }
}

async function periodUsage(m: Models, orgId: string, feature: PeriodQuota, now: Date): Promise<number> {
  const counter = await m.UsageCounter.findOne({ org_id: orgId, feature, period_start: periodStart(PERIOD_QUOTAS[feature], now) }).lean();
  return counter?.used ?? 0;
}

function quotaEntry(quota: number | null, used: number): FeatureEntitlement {
  return { type: 'quota', quota, used, remaining: quota === null ? null : Math.max(0, quota - used) };
}

/** Usage of one quota feature for an organization, now. */
export async function quotaUsage(m: Models, org: Organization, feature: QuotaFeature, now: Date): Promise<FeatureEntitlement> {
  const used = feature in PERIOD_QUOTAS
    ? await periodUsage(m, org._id, feature as PeriodQuota, now)
    : await lifetimeUsage(m, org, feature as LifetimeQuota, now);
  return quotaEntry(quotaOf(org, feature), used);
}

/** The entitlements object of spec 2.10. */
export async function resolveEntitlements(m: Models, orgId: string, now: Date): Promise<Entitlements> {
  const org = await loadOrganization(m, orgId, now);
  const plan = org.plan as PlanId;
  const features: Record<string, FeatureEntitlement> = {};
  for (const [feature, minimum] of Object.entries(BOOLEAN_FEATURES)) {
    features[feature] = { type: 'boolean', enabled: planIncludes(plan, minimum) };
  }
  for (const feature of [...LIFETIME_QUOTAS, ...(Object.keys(PERIOD_QUOTAS) as PeriodQuota[])]) {
    features[feature] = await quotaUsage(m, org, feature, now);
  }
  return { plan: { id: plan, name: PLAN_NAMES[plan] }, status: 'active', features, overage: await overageLines(m, orgId, now) };
}

/** The month's overage lines: one per period quota with overage pricing, zero credits included. */
async function overageLines(m: Models, orgId: string, now: Date): Promise<OverageLine[]> {
  const feature = 'agent_credits_monthly' as const;
  const start = periodStart('month', now);
  const counter = await m.UsageCounter.findOne({ org_id: orgId, feature, period_start: start }).lean();
  const credits = counter?.overage ?? 0;
  const price = OVERAGE_PRICE_USD[feature] ?? 0;
  return [{
    feature, period_start: start.toISOString(), period_end: nextPeriodStart('month', now).toISOString(),
    credits, unit_price_usd: price, amount_usd: Math.round(credits * price * 100) / 100,
  }];
}

/** Whether the organization's plan (a due downgrade applied) includes a boolean feature. */
export async function hasFeature(m: Models, orgId: string, feature: BooleanFeature, now: Date): Promise<boolean> {
  const org = await loadOrganization(m, orgId, now);
  return planIncludes(org.plan as PlanId, BOOLEAN_FEATURES[feature]);
}

/** Throws 402 `plan_required` when the organization's plan lacks a boolean feature. */
export async function requireFeature(m: Models, orgId: string, feature: BooleanFeature, now: Date, upgradeUrl: string): Promise<void> {
  const org = await loadOrganization(m, orgId, now);
  const minimum = BOOLEAN_FEATURES[feature];
  if (!planIncludes(org.plan as PlanId, minimum)) throw planRequired(featureLabel(feature), PLAN_NAMES[minimum], upgradeUrl);
}

/**
 * Throws when creating one more of a lifetime-capped resource would pass the cap (quota rule 2).
 * The error is 402 `plan_limit_reached` and carries `upgrade_url`: like `plan_required`, the way
 * forward is a plan change, so it shares the Payment Required status with a distinct code.
 */
export async function checkLifetimeCap(m: Models, orgId: string, feature: LifetimeQuota, now: Date, upgradeUrl: string): Promise<number | null> {
  const org = await loadOrganization(m, orgId, now);
  const entry = await quotaUsage(m, org, feature, now);
  if (entry.type === 'quota' && entry.quota !== null && entry.used >= entry.quota) throw limitReached(org, feature, entry.quota, upgradeUrl);
  return entry.type === 'quota' ? entry.quota : null;
}

/** What an upgrade lets the organization do, per lifetime quota. */
const ADD_MORE: Record<LifetimeQuota, string> = {
  max_projects: 'create more', max_dashboard_members: 'invite more', max_custom_domains: 'add more',
};

function limitReached(org: Organization, feature: LifetimeQuota, quota: number, upgradeUrl: string): AppError {
  return new AppError(402, 'plan_limit_reached',
    `Your ${PLAN_NAMES[org.plan as PlanId]} plan allows ${quotaCount(feature, quota)}; upgrade to ${ADD_MORE[feature]}`,
    { extra: { upgrade_url: upgradeUrl } });
}

/** How long an organization's lock holds if its holder dies. */
const ORG_LOCK_MS = 10_000;

/** What an organization's lock guards: creating a project, or taking a dashboard seat. */
export type OrgLock = 'project' | 'seat';

/**
 * Runs `fn` (check the cap, then create the project or take the seat) while holding the
 * organization's `kind` lock, taken with one conditional update on the organization: concurrent
 * creations of one organization, on one control plane or several sharing the database, run one
 * at a time, so the count they check is the count they create against. Other organizations, and
 * the other kind of lock, never wait.
 */
export async function withOrgLock<T>(m: Models, orgId: string, kind: OrgLock, fn: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  const [lock, until] = [`${kind}_lock`, `${kind}_lock_until`];
  for (;;) {
    const now = new Date();
    const taken = await m.Organization.findOneAndUpdate(
      { _id: orgId, $or: [{ [until]: null }, { [until]: { $exists: false } }, { [until]: { $lt: now } }] },
      { $set: { [lock]: token, [until]: new Date(now.getTime() + ORG_LOCK_MS) } },
    ).lean();
    if (taken) break;
    if (!(await m.Organization.exists({ _id: orgId }))) return fn();
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
  try {
    return await fn();
  } finally {
    await m.Organization.updateOne({ _id: orgId, [lock]: token }, { $set: { [lock]: null, [until]: null } });
  }
}

/** {@link withOrgLock} for creating a project. */
export const withProjectLock = <T>(m: Models, orgId: string, fn: () => Promise<T>): Promise<T> => withOrgLock(m, orgId, 'project', fn);

/**
 * Settles concurrent creations past `max_projects`: the check before creating can pass for two
 * callers at once, so after creating, only the organization's first `quota` projects (by
 * creation time, then id: every caller sees the same order) are kept; a project past the cap is
 * removed again and its caller gets the same error as the check.
 */
export async function settleProjectCap(m: Models, orgId: string, projectId: string, quota: number | null, now: Date, upgradeUrl: string): Promise<void> {
  if (quota === null) return;
  const kept = await m.Project.find({ org_id: orgId }, { _id: 1 }).sort({ created_at: 1, _id: 1 }).limit(quota).lean();
  if (kept.some((p) => p._id === projectId)) return;
  await m.Project.deleteOne({ _id: projectId });
  throw limitReached(await loadOrganization(m, orgId, now), 'max_projects', quota, upgradeUrl);
}

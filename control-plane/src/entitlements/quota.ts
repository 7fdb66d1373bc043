/**
 * Atomic consumption of period-bound quotas (spec section 8, rules 1, 4 and 5).
 *
 * The increment is a single conditional update (`used <= cap - amount`), so concurrent consumers
 * can never push a counter past its cap and a refused call leaves the counter unchanged. Plans
 * with overage (pro and team writing-agent credits) always succeed; units past the cap are
 * recorded in `overage` for billing. Usage is kept across plan changes: an upgrade applies the
 * higher cap to it, a downgrade keeps it against the lower cap until the next reset.
 */
import { quotaCount } from '../../dashboard-app/src/shared/labels.ts';
import type { Models } from '../db/models/index.ts';
import { AppError, invalid } from '../errors.ts';
import { periodStart, nextPeriodStart, secondsUntilReset } from './periods.ts';
import { PERIOD_QUOTAS, type PeriodQuota } from './plans.ts';
import { hasOverage, loadOrganization, quotaOf } from './resolver.ts';

export interface ConsumeResult { used: number; quota: number | null; remaining: number | null; overage: number }

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}

/** Consumes `amount` units of `feature` for the organization, or throws 429 `quota_exceeded`. */
export async function consumeQuota(m: Models, orgId: string, feature: PeriodQuota, amount: number, now: Date): Promise<ConsumeResult> {
  if (!Number.isInteger(amount) || amount < 1) throw invalid('amount', 'must be a positive integer');
  const org = await loadOrganization(m, orgId, now);
  const unit = PERIOD_QUOTAS[feature];
  const quota = quotaOf(org, feature);
  const key = { org_id: orgId, feature, period_start: periodStart(unit, now) };
  // The first consume of a period starts the counter at zero (rule 1).
  try {
    await m.UsageCounter.updateOne(key, { $setOnInsert: { used: 0, overage: 0 } }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const allowOverage = hasOverage(org, feature);
  if (quota === null || allowOverage) {
    const after = await m.UsageCounter.findOneAndUpdate(key, { $inc: { used: amount } }, { returnDocument: 'after' }).lean();
    const used = after!.used ?? 0;
    const over = quota === null ? 0 : Math.min(amount, Math.max(0, used - quota));
    if (over > 0) await m.UsageCounter.updateOne(key, { $inc: { overage: over } });
    return { used, quota, remaining: quota === null ? null : Math.max(0, quota - used), overage: over };
  }
  const after = await m.UsageCounter.findOneAndUpdate(
    { ...key, used: { $lte: quota - amount } },
    { $inc: { used: amount } },
    { returnDocument: 'after' },
  ).lean();
  if (!after) {
    const resetAt = nextPeriodStart(unit, now);
    throw new AppError(429, 'quota_exceeded',
      `Your plan allows ${quotaCount(feature, quota)}, all used; it resets at ${resetAt.toISOString()}`,
      { headers: { 'Retry-After': String(secondsUntilReset(unit, now)) } });
  }
  return { used: after.used ?? 0, quota, remaining: Math.max(0, quota - (after.used ?? 0)), overage: 0 };
}

/**
 * Gives back `amount` units consumed in the period of `at` (the call they paid for did not
 * happen after all, e.g. the model never answered); the counter never goes below zero.
 */
export async function releaseQuota(m: Models, orgId: string, feature: PeriodQuota, amount: number, at: Date): Promise<void> {
  const key = { org_id: orgId, feature, period_start: periodStart(PERIOD_QUOTAS[feature], at) };
  await m.UsageCounter.updateOne({ ...key, used: { $gte: amount } }, { $inc: { used: -amount } });
}

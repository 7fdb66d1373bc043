/** Quota period boundaries, all in UTC (quota rule 1). */
export type PeriodUnit = 'day' | 'month';

/** Start of the period containing `now`. */
export function periodStart(unit: PeriodUnit, now: Date): Date {
  return unit === 'day'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Start of the next period after the one containing `now`. */
export function nextPeriodStart(unit: PeriodUnit, now: Date): Date {
  return unit === 'day'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds until the next reset, at least 1 (the `Retry-After` value). */
export function secondsUntilReset(unit: PeriodUnit, now: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(unit, now).getTime() - now.getTime()) / 1000));
}

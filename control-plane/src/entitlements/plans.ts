/**
 * The plan table (spec section 8). Quota `null` means unlimited. Boolean features list the
 * minimum plan that includes them; every higher plan includes them too.
 */
import type { PlanId } from '../db/models/organization.ts';

export const PLAN_ORDER: readonly PlanId[] = ['free', 'pro', 'team', 'enterprise'];
export const PLAN_NAMES: Record<PlanId, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };

/** Quotas that are compared with a current count at creation time and never reset. */
export const LIFETIME_QUOTAS = ['max_projects', 'max_dashboard_members', 'max_custom_domains'] as const;
/** Quotas counted per period: daily from 00:00 UTC, monthly from 00:00 UTC on the 1st. */
export const PERIOD_QUOTAS = { assistant_messages_daily: 'day', agent_credits_monthly: 'month' } as const;

export type LifetimeQuota = (typeof LIFETIME_QUOTAS)[number];
export type PeriodQuota = keyof typeof PERIOD_QUOTAS;
export type QuotaFeature = LifetimeQuota | PeriodQuota;

export const QUOTAS: Record<QuotaFeature, Record<PlanId, number | null>> = {
  max_projects: { free: 1, pro: null, team: null, enterprise: null },
  max_dashboard_members: { free: 1, pro: 5, team: 15, enterprise: null },
  max_custom_domains: { free: 1, pro: 5, team: 15, enterprise: null },
  assistant_messages_daily: { free: 10, pro: 500, team: null, enterprise: null },
  agent_credits_monthly: { free: 0, pro: 5000, team: 25000, enterprise: null },
};

/** Period quotas that may run over their cap on these plans, the excess billed (rule 4). */
export const OVERAGE: Partial<Record<PeriodQuota, readonly PlanId[]>> = {
  agent_credits_monthly: ['pro', 'team'],
};

/** What one credit past the cap is billed at the month's end (rule 4). */
export const OVERAGE_PRICE_USD: Partial<Record<PeriodQuota, number>> = { agent_credits_monthly: 0.01 };

export const BOOLEAN_FEATURES: Record<string, PlanId> = {
  mcp_server: 'free',
  llm_text_export: 'free',
  web_editor: 'free',
  live_preview: 'free',
  basic_analytics: 'free',
  audience_split: 'free',
  preview_deployments: 'pro',
  inline_ai: 'pro',
  multi_user_collaboration: 'pro',
  writing_agent: 'pro',
  password_protection: 'pro',
  auth_gated_pages: 'pro',
  outgoing_webhooks: 'pro',
  chat_notifications: 'pro',
  custom_css: 'pro',
  single_sign_on: 'team',
  audit_log: 'team',
  white_labeling: 'team',
  custom_roles: 'enterprise',
  self_updating_workflows: 'enterprise',
};

export type BooleanFeature = keyof typeof BOOLEAN_FEATURES;

export function planIncludes(plan: PlanId, minimum: PlanId): boolean {
  return PLAN_ORDER.indexOf(plan) >= PLAN_ORDER.indexOf(minimum);
}

/**
 * Agent credits (`agent_credits_monthly`), metered from the model's own usage report: one credit
 * is 1,000 tokens, prompt and completion together, rounded up per model call (a call of 1 token
 * costs 1 credit, of 1,000 tokens 1 credit, of 1,001 tokens 2). Inline AI and the writing agent
 * both spend them. A call whose endpoint sends no usage report is charged from its text length
 * (4 characters a token), so a model cannot make calls free by leaving the report out.
 *
 * The counter is the platform's one quota counter (entitlements/quota.ts). On plans whose cap
 * has no overage, one credit is taken before the call (so a used-up month is refused with the
 * counter's own 429 `quota_exceeded` before the model is asked, and a refusal leaves the counter
 * unchanged) and the rest after it, at most up to the cap; a call that fails gives its credit back.
 * On plans with overage (pro, team) and unlimited ones, the whole charge is taken after the call.
 */
import type { Deps } from '../http/route.ts';
import { consumeQuota, releaseQuota } from '../entitlements/quota.ts';
import { OVERAGE, QUOTAS } from '../entitlements/plans.ts';
import { loadOrganization } from '../entitlements/resolver.ts';
import type { PlanId } from '../db/models/organization.ts';
import { periodStart } from '../entitlements/periods.ts';
import type { TurnResult } from '../ai-settings/model-client.ts';

export const TOKENS_PER_CREDIT = 1_000;
const FEATURE = 'agent_credits_monthly' as const;

/** Credits for one model call of `tokens` tokens (rounded up; 0 tokens cost nothing). */
export const creditsFor = (tokens: number): number => Math.ceil(Math.max(0, tokens) / TOKENS_PER_CREDIT);

/** Tokens of one call: the usage report's total, or an estimate from the text when there is none. */
export function tokensOf(turn: Pick<TurnResult, 'usage' | 'text' | 'toolCalls'>, sentChars: number): number {
  if (turn.usage) return turn.usage.total_tokens || turn.usage.prompt_tokens + turn.usage.completion_tokens;
  const out = turn.text.length + turn.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  return Math.ceil((sentChars + out) / 4);
}

/** A credit hold taken before a model call; `settle` charges the call, `cancel` gives it back. */
export interface CreditHold { held: number; settle(tokens: number): Promise<number>; cancel(): Promise<void> }

/** Takes the up-front credit where the plan's cap has no overage; throws 429 `quota_exceeded` when the month's credits are used up. */
export async function holdCredits(deps: Deps, orgId: string): Promise<CreditHold> {
  const at = deps.now();
  const org = await loadOrganization(deps.m, orgId, at);
  const plan = org.plan as PlanId;
  const capped = QUOTAS[FEATURE][plan] !== null && !(OVERAGE[FEATURE]?.includes(plan) ?? false);
  let held = 0;
  if (capped) { await consumeQuota(deps.m, orgId, FEATURE, 1, at); held = 1; }
  let done = false;
  return {
    get held() { return held; },
    async settle(tokens) {
      if (done) return 0;
      done = true;
      const credits = creditsFor(tokens);
      const extra = credits - held;
      if (extra < 0) { await releaseQuota(deps.m, orgId, FEATURE, -extra, at); return credits; }
      if (extra === 0) return credits;
      try {
        await consumeQuota(deps.m, orgId, FEATURE, extra, at);
        return credits;
      } catch {
        // A capped month: the call already happened, so charge what is left of the cap.
        const counter = await deps.m.UsageCounter.findOne({ org_id: orgId, feature: FEATURE, period_start: periodStart('month', at) }).lean();
        const left = Math.max(0, (QUOTAS[FEATURE][plan] ?? 0) - (counter?.used ?? 0));
        if (left > 0) await consumeQuota(deps.m, orgId, FEATURE, left, at).catch(() => undefined);
        return held + left;
      }
    },
    async cancel() {
      if (done) return;
      done = true;
      if (held) await releaseQuota(deps.m, orgId, FEATURE, held, at);
    },
  };
}

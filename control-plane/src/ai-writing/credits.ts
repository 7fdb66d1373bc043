/**
 * Agent credits (`agent_credits_monthly`), metered from the model's own usage report: one credit
 * is 1,000 tokens, prompt and completion together, rounded up per model call (a call of 1 token
 * costs 1 credit, of 1,000 tokens 1 credit, of 1,001 tokens 2). Inline AI, the writing agent and
 * self-updating workflows spend them. A call whose endpoint sends no usage report is charged from
 * its text length (4 characters a token), so a model cannot make calls free by leaving the report
 * out. Every charged call writes one line to the usage ledger (`usage-ledger.ts`).
 *
 * The counter is the platform's one quota counter (entitlements/quota.ts). Where the cap has no
 * overage (the free plan's 0, an organization's custom cap), credits are reserved before the call
 * with one conditional update each: the call's estimate (what is sent plus the most it may write),
 * at most what is left of the cap and at least one credit, so a used-up month is refused with the
 * counter's own 429 `quota_exceeded` before the model is asked and the counter stays as it was.
 * After the call the reservation is reconciled with the usage report: the unused part is given
 * back, and a call that used more than it reserved takes the rest only up to the cap. Concurrent
 * calls therefore never take the counter past the cap. A call that fails gives its reservation
 * back. Where there is overage (Pro, Team) or no cap, the whole charge is taken after the call.
 */
import type { Deps } from '../http/route.ts';
import { consumeQuota, releaseQuota } from '../entitlements/quota.ts';
import { hasOverage, loadOrganization, quotaOf } from '../entitlements/resolver.ts';
import { periodStart } from '../entitlements/periods.ts';
import type { TurnResult } from '../ai-settings/model-client.ts';
import { usageLedgerModel, type LedgerMeta } from './usage-ledger.ts';

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

/** The most a call may cost, for the reservation: what is sent (4 characters a token) plus the most it may write. */
export const estimateCredits = (sentChars: number, maxTokens: number): number => Math.max(1, creditsFor(Math.ceil(sentChars / 4) + maxTokens));

/** A credit reservation taken before a model call; `settle` charges the call, `cancel` gives it back. */
export interface CreditHold { held: number; settle(tokens: number): Promise<number>; cancel(): Promise<void> }

async function usedNow(deps: Deps, orgId: string, at: Date): Promise<number> {
  const counter = await deps.m.UsageCounter.findOne({ org_id: orgId, feature: FEATURE, period_start: periodStart('month', at) }).lean();
  return counter?.used ?? 0;
}

/**
 * Reserves the call's credits where the cap has no overage; throws 429 `quota_exceeded` when the
 * month's credits are used up. `estimate` is {@link estimateCredits} of the call.
 */
export async function holdCredits(deps: Deps, orgId: string, meta: LedgerMeta, estimate = 1): Promise<CreditHold> {
  const at = deps.now();
  const org = await loadOrganization(deps.m, orgId, at);
  const cap = quotaOf(org, FEATURE);
  const capped = cap !== null && !hasOverage(org, FEATURE);
  let held = 0;
  if (capped) {
    // Take min(estimate, what is left), each try one conditional update; a race lost retries with what is left then.
    for (let attempt = 0; ; attempt++) {
      const left = cap - (await usedNow(deps, orgId, at));
      const take = Math.max(1, Math.min(Math.max(1, estimate), left));
      try {
        await consumeQuota(deps.m, orgId, FEATURE, take, at);
        held = take;
        break;
      } catch (err) {
        if (take === 1 || attempt >= 5) throw err;
      }
    }
  }
  let done = false;
  const record = async (tokens: number, credits: number, overCap: number) => {
    if (credits <= 0 && tokens <= 0) return;
    await usageLedgerModel(deps.m).create({
      org_id: orgId, project_id: meta.projectId, feature: meta.feature, run_id: meta.runId ?? null,
      tokens, credits, over_cap: overCap, at,
    });
  };
  return {
    get held() { return held; },
    async settle(tokens) {
      if (done) return 0;
      done = true;
      const credits = creditsFor(tokens);
      if (!capped) {
        const res = credits > 0 ? await consumeQuota(deps.m, orgId, FEATURE, credits, at) : { overage: 0 };
        await record(tokens, credits, res.overage);
        return credits;
      }
      const extra = credits - held;
      if (extra <= 0) {
        if (extra < 0) await releaseQuota(deps.m, orgId, FEATURE, -extra, at);
        await record(tokens, credits, 0);
        return credits;
      }
      try {
        await consumeQuota(deps.m, orgId, FEATURE, extra, at);
        await record(tokens, credits, 0);
        return credits;
      } catch {
        // The call already happened: charge what is left of the cap, never past it.
        let charged = held;
        for (let attempt = 0; attempt < 5; attempt++) {
          const left = Math.min(extra, cap - (await usedNow(deps, orgId, at)));
          if (left <= 0) break;
          const ok = await consumeQuota(deps.m, orgId, FEATURE, left, at).then(() => true, () => false);
          if (ok) { charged += left; break; }
        }
        await record(tokens, charged, 0);
        return charged;
      }
    },
    async cancel() {
      if (done) return;
      done = true;
      if (held) await releaseQuota(deps.m, orgId, FEATURE, held, at);
    },
  };
}

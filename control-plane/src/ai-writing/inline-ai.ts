/**
 * One inline AI suggestion: checks the selection's size, asks the writing model (streamed, with
 * timeouts), charges agent credits from its usage report, and hands each piece of text to the
 * caller as it arrives.
 */
import { chatTurn, type ModelConfig } from '../ai-settings/model-client.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { estimateCredits, holdCredits, tokensOf } from './credits.ts';
import { inlineMessages, maxTokensFor, MAX_SELECTION_CHARS, SUGGESTION_MODE, type InlineAiBody } from './inline-prompts.ts';

export interface InlineResult {
  text: string;
  mode: 'replace' | 'insert' | 'explain';
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; credits: number };
}

/** 413 before anything is sent to the model. */
export function assertSelectionSize(body: InlineAiBody): void {
  if (body.text.length > MAX_SELECTION_CHARS) {
    throw new AppError(413, 'too_large', `The selection has ${body.text.length.toLocaleString('en-US')} characters; inline AI works on at most ${MAX_SELECTION_CHARS.toLocaleString('en-US')} at a time. Select a smaller part of the page.`);
  }
}

/** Runs the suggestion. `config` is the organization's writing model. */
export async function suggest(deps: Deps, orgId: string, projectId: string, config: ModelConfig, body: InlineAiBody, signal: AbortSignal, onText: (piece: string) => void): Promise<InlineResult> {
  assertSelectionSize(body);
  const messages = inlineMessages(body);
  const sentChars = messages.reduce((n, m) => n + m.content.length, 0);
  const hold = await holdCredits(deps, orgId, { projectId, feature: 'inline_ai' }, estimateCredits(sentChars, maxTokensFor(body)));
  let turn;
  try {
    turn = await chatTurn({ ...config, maxTokens: maxTokensFor(body), totalMs: 90_000 }, messages, signal, { onText });
  } catch (err) {
    await hold.cancel();
    throw err;
  }
  const tokens = tokensOf(turn, sentChars);
  const credits = await hold.settle(tokens);
  const usage = turn.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: tokens };
  return { text: turn.text, mode: SUGGESTION_MODE[body.action], usage: { ...usage, credits } };
}

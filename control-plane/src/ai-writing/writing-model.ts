/**
 * The model the writing features (inline AI, the writing agent) use: the organization's own
 * model when it saved one, else the operator's default (ASSISTANT_LLM_*), else none, which the
 * routes answer with 409 `ai_model_not_configured` in words for people.
 */
import { aiSettingsModel, type AiSettings } from '../ai-settings/ai-settings-store.ts';
import type { ModelConfig } from '../ai-settings/model-client.ts';
import { organizationModel, platformModel, type ModelEnv } from '../ai-settings/model-resolver.ts';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';

export async function writingModel(m: Models, env: ModelEnv, orgId: string): Promise<ModelConfig | undefined> {
  const row = await aiSettingsModel(m).findOne({ org_id: orgId }).lean<AiSettings>();
  if (row) return organizationModel(m, env, row);
  return platformModel(env);
}

/** 409: no model answers this organization's writing features. */
export const modelNotConfigured = () => new AppError(409, 'ai_model_not_configured',
  'No AI model is connected yet. An owner or admin can connect one under Settings → AI model (an OpenAI-compatible endpoint such as OpenAI, Azure OpenAI, Ollama or vLLM); then try again.');

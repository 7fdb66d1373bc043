/**
 * Which model answers for an organization's feature: the organization's own settings when they
 * list the feature, else the operator's default from the environment (ASSISTANT_LLM_URL,
 * ASSISTANT_LLM_KEY, ASSISTANT_LLM_MODEL), else none (the feature works without a model, e.g.
 * the assistant answers with the best matching pages). Looked up at most every 2 s per
 * organization, so a change in the dashboard shows within 2 s.
 */
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import { openSecret } from '../secrets/secret-box.ts';
import type { AiFeature } from './ai-features.ts';
import { aiSettingsModel, KEY_PURPOSE, type AiSettings } from './ai-settings-store.ts';
import type { ModelConfig } from './model-client.ts';

export type ModelEnv = Pick<Env, 'ASSISTANT_LLM_URL' | 'ASSISTANT_LLM_KEY' | 'ASSISTANT_LLM_MODEL' | 'ASSISTANT_LLM_TIMEOUT_MS' | 'AI_MODEL_PRIVATE_HOSTS'>;

/** Where a feature's model comes from. */
export type ModelSource = 'organization' | 'platform';

/** The operator's default model, if the environment sets one. */
export function platformModel(env: ModelEnv): ModelConfig | undefined {
  return env.ASSISTANT_LLM_URL
    ? { url: env.ASSISTANT_LLM_URL, key: env.ASSISTANT_LLM_KEY, model: env.ASSISTANT_LLM_MODEL, firstTokenMs: env.ASSISTANT_LLM_TIMEOUT_MS }
    : undefined;
}

/** An organization's saved settings as a client config (the key opened), guarded by the address check. */
export async function organizationModel(m: Models, env: ModelEnv, row: AiSettings, allowHosts: readonly string[] = []): Promise<ModelConfig> {
  return {
    url: row.base_url, model: row.model, firstTokenMs: env.ASSISTANT_LLM_TIMEOUT_MS,
    key: row.key_sealed ? await openSecret(m, KEY_PURPOSE, row.key_sealed) : undefined,
    guard: { allowHosts: [...env.AI_MODEL_PRIVATE_HOSTS, ...allowHosts] },
  };
}

export interface ResolvedModel { config: ModelConfig; source: ModelSource }

/** The model of `feature` for `orgId`, or undefined. */
export async function modelFor(m: Models, env: ModelEnv, orgId: string, feature: AiFeature): Promise<ResolvedModel | undefined> {
  const row = await aiSettingsModel(m).findOne({ org_id: orgId }).lean<AiSettings>();
  if (row && row.features.includes(feature)) return { config: await organizationModel(m, env, row), source: 'organization' };
  const fallback = platformModel(env);
  return fallback ? { config: fallback, source: 'platform' } : undefined;
}

/** {@link modelFor}, remembered for `ttlMs` per organization and feature (the request path asks on every message). */
export function cachedModelFor(m: Models, env: ModelEnv, now: () => number = Date.now, ttlMs = 2_000): (orgId: string, feature: AiFeature) => Promise<ResolvedModel | undefined> {
  const cache = new Map<string, { at: number; value: Promise<ResolvedModel | undefined> }>();
  return (orgId, feature) => {
    const key = `${orgId}\0${feature}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.value;
    const value = modelFor(m, env, orgId, feature);
    value.catch(() => cache.delete(key));
    cache.set(key, { at: now(), value });
    if (cache.size > 10_000) for (const [k, v] of cache) if (now() - v.at >= ttlMs) cache.delete(k);
    return value;
  };
}

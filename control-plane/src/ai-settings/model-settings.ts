/**
 * Reading and changing an organization's model settings (ai-settings-store.ts): the request
 * schema, the views (the dashboard's, with a masked key hint; the API's, which says only whether
 * a model is configured), saving (the base URL must pass the address guard; the key is sealed)
 * and removing.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import { invalid, notFound } from '../errors.ts';
import { sealSecret } from '../secrets/secret-box.ts';
import { checkedAddress } from '../outbound/safe-fetch.ts';
import { AI_FEATURES, AI_FEATURE_DESCRIPTIONS, type AiFeature } from './ai-features.ts';
import { aiSettingsModel, KEY_PURPOSE, type AiSettings } from './ai-settings-store.ts';
import { platformModel, type ModelEnv } from './model-resolver.ts';

const featureSchema = z.enum(AI_FEATURES, { message: `must be one of: ${AI_FEATURES.join(', ')}` }).describe(Object.entries(AI_FEATURE_DESCRIPTIONS).map(([k, v]) => `\`${k}\`: ${v}`).join('; '));

export const modelSettingsBody = z.strictObject({
  base_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://api.openai.com/v1' }).max(500, 'must be at most 500 characters')
    .describe('The OpenAI-compatible endpoint\'s base URL; `/chat/completions` is appended. It must resolve to public addresses, unless the platform allows its host:port (AI_MODEL_PRIVATE_HOSTS)'),
  model: z.string().trim().min(1, 'Required').max(200, 'must be at most 200 characters').describe('The model name the endpoint expects, e.g. gpt-4o-mini or llama3.1:8b'),
  api_key: z.string().trim().min(1, 'must not be empty; send null to remove the key').max(1000, 'must be at most 1000 characters').nullable().optional()
    .describe('Sent as `Authorization: Bearer …`. Omit to keep the stored key, null to remove it. Stored encrypted, never answered'),
  features: z.array(featureSchema).refine((f) => new Set(f).size === f.length, 'must not repeat a feature').optional()
    .describe('The features that use this model (default all); the others use the platform\'s default model, if any'),
}).meta({ id: 'AiModelSettingsInput' });

export type ModelSettingsBody = z.infer<typeof modelSettingsBody>;

export const modelSettingsView = z.object({
  organization: z.object({
    base_url: z.string(),
    model: z.string(),
    api_key: z.object({ set: z.boolean(), hint: z.string().nullable().describe('The key\'s last four characters, e.g. `…a1b2`') }),
    features: z.array(z.enum(AI_FEATURES)),
    updated_at: z.string(),
  }).nullable().describe('The organization\'s own model; null when none is saved'),
  platform_default: z.object({ available: z.boolean(), model: z.string().nullable() }).describe('The model the platform\'s operator provides to every organization, if any'),
  features: z.array(z.object({ feature: z.enum(AI_FEATURES), description: z.string(), source: z.enum(['organization', 'platform', 'none']) }))
    .describe('Where each feature\'s model comes from now'),
}).meta({ id: 'AiModelSettings' });

export type ModelSettingsView = z.infer<typeof modelSettingsView>;

/** What an API key may read: whether each feature has a model, never where or with which key. */
export const modelStatusView = z.object({
  configured: z.boolean().describe('Whether at least one AI feature has a model'),
  features: z.array(z.object({ feature: z.enum(AI_FEATURES), configured: z.boolean(), source: z.enum(['organization', 'platform', 'none']) })),
}).meta({ id: 'AiModelStatus' });

const sourceOf = (row: AiSettings | null, env: ModelEnv, feature: AiFeature): 'organization' | 'platform' | 'none' =>
  row?.features.includes(feature) ? 'organization' : platformModel(env) ? 'platform' : 'none';

export async function readSettings(m: Models, orgId: string): Promise<AiSettings | null> {
  return aiSettingsModel(m).findOne({ org_id: orgId }).lean<AiSettings>();
}

/** The dashboard's view (the key as a hint only). */
export async function settingsView(m: Models, env: ModelEnv, orgId: string): Promise<ModelSettingsView> {
  const row = await readSettings(m, orgId);
  const platform = platformModel(env);
  return {
    organization: row ? {
      base_url: row.base_url, model: row.model, features: row.features as AiFeature[], updated_at: row.updated_at.toISOString(),
      api_key: { set: Boolean(row.key_sealed), hint: row.key_hint ? `…${row.key_hint}` : null },
    } : null,
    platform_default: { available: Boolean(platform), model: platform?.model ?? null },
    features: AI_FEATURES.map((feature) => ({ feature, description: AI_FEATURE_DESCRIPTIONS[feature], source: sourceOf(row, env, feature) })),
  };
}

/** The API key's view. */
export async function statusView(m: Models, env: ModelEnv, orgId: string): Promise<z.infer<typeof modelStatusView>> {
  const row = await readSettings(m, orgId);
  const features = AI_FEATURES.map((feature) => {
    const source = sourceOf(row, env, feature);
    return { feature, configured: source !== 'none', source };
  });
  return { configured: features.some((f) => f.configured), features };
}

/**
 * Saves the organization's settings. The base URL passes the address guard now (400 naming
 * `base_url`) and again at every request; a first save without `api_key` stores no key.
 */
export async function saveSettings(m: Models, env: ModelEnv, orgId: string, body: ModelSettingsBody, now: Date, allowHosts: readonly string[] = []): Promise<void> {
  const url = new URL(body.base_url);
  if (url.search || url.hash) throw invalid('base_url', 'Unexpected query or fragment; expected a base URL such as https://api.openai.com/v1');
  await checkedAddress(url, 'base_url', [...env.AI_MODEL_PRIVATE_HOSTS, ...allowHosts]);
  const set: Record<string, unknown> = { base_url: body.base_url.replace(/\/+$/, ''), model: body.model, updated_at: now };
  if (body.features) set.features = body.features;
  if (body.api_key === null) Object.assign(set, { key_sealed: null, key_hint: null });
  // A short key gets no hint: four characters of it would be too much of it.
  else if (body.api_key !== undefined) Object.assign(set, { key_sealed: await sealSecret(m, KEY_PURPOSE, body.api_key), key_hint: body.api_key.length >= 12 ? body.api_key.slice(-4) : null });
  const onInsert: Record<string, unknown> = { _id: randomUUID(), created_at: now };
  if (!body.features) onInsert.features = [...AI_FEATURES];
  await aiSettingsModel(m).updateOne({ org_id: orgId }, { $set: set, $setOnInsert: onInsert }, { upsert: true, setDefaultsOnInsert: false });
}

/** Removes the organization's settings (its features fall back to the platform's default); 404 when there are none. */
export async function deleteSettings(m: Models, orgId: string): Promise<void> {
  const { deletedCount } = await aiSettingsModel(m).deleteOne({ org_id: orgId });
  if (!deletedCount) throw notFound('Model settings');
}

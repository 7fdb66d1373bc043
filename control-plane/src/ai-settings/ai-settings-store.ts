/**
 * An organization's model settings (at most one row per organization, collection `ai_settings`):
 * an OpenAI-compatible chat endpoint (base URL, model name, API key sealed with the server
 * secret, secrets/secret-box.ts, purpose {@link KEY_PURPOSE}; never stored in clear, never
 * answered: only its last four characters as a hint) and the AI features that use it.
 *
 * The model is registered on the database connection the first time it is asked for, so the
 * settings need nothing from the shared model list.
 */
import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType, type Model } from 'mongoose';
import type { Models } from '../db/models/index.ts';
import { AI_FEATURES } from './ai-features.ts';

/** What the API key is sealed for: a value sealed for anything else does not open as a key. */
export const KEY_PURPOSE = 'ai-model-api-key';

export const aiSettingsSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true, unique: true },
  base_url: { type: String, required: true },
  model: { type: String, required: true },
  /** Sealed (secret-box.ts, purpose {@link KEY_PURPOSE}); null: the endpoint takes no key. */
  key_sealed: { type: String, default: null },
  /** The key's last four characters, shown as `…abcd`; null without a key. */
  key_hint: { type: String, default: null },
  /** The features that answer with this model; the others use the platform's default, if any. */
  features: { type: [String], enum: AI_FEATURES, default: () => [...AI_FEATURES] },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });

export type AiSettings = InferSchemaType<typeof aiSettingsSchema> & { _id: string };

/** The settings model on `m`'s connection. */
export function aiSettingsModel(m: Models): Model<AiSettings> {
  const connection = m.Organization.db;
  return (connection.models.AiSettings as Model<AiSettings> | undefined) ?? connection.model<AiSettings>('AiSettings', aiSettingsSchema, 'ai_settings');
}

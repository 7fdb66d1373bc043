/**
 * The usage ledger (collection `usage_ledger`): one line per metered model call of the writing
 * features, with the organization, the project, which feature made it (`inline_ai`,
 * `writing_agent`, or `workflow` for a writing agent run started by a self-updating workflow),
 * the tokens the model reported, the credits charged and how many of them were past the month's
 * cap (billed as overage on Pro and Team). The quota counter says how much; the ledger says what
 * for. Registered on the database connection the first time it is asked for.
 */
import { randomUUID } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import type { Models } from '../db/models/index.ts';

export const LEDGER_FEATURES = ['inline_ai', 'writing_agent', 'workflow'] as const;
export type LedgerFeature = (typeof LEDGER_FEATURES)[number];

export const usageLedgerSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  project_id: { type: String, default: null },
  feature: { type: String, enum: LEDGER_FEATURES, required: true },
  /** The agent run (or workflow run's agent run) the call belonged to; null for inline AI. */
  run_id: { type: String, default: null },
  tokens: { type: Number, required: true },
  credits: { type: Number, required: true },
  /** Credits of this call past the month's cap (billed at the month's end); 0 within it. */
  over_cap: { type: Number, default: 0 },
  at: { type: Date, required: true },
}, { versionKey: false });
usageLedgerSchema.index({ org_id: 1, at: -1 });
usageLedgerSchema.index({ run_id: 1 });

export interface LedgerLine {
  _id: string; org_id: string; project_id: string | null; feature: LedgerFeature; run_id: string | null;
  tokens: number; credits: number; over_cap: number; at: Date;
}

export function usageLedgerModel(m: Models): Model<LedgerLine> {
  const connection = m.Organization.db;
  return (connection.models.UsageLedger as Model<LedgerLine> | undefined) ?? connection.model<LedgerLine>('UsageLedger', usageLedgerSchema, 'usage_ledger');
}

/** What a metered call is for: written on its ledger line. */
export interface LedgerMeta { projectId: string | null; feature: LedgerFeature; runId?: string | null }

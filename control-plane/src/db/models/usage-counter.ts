import { Schema, type InferSchemaType } from 'mongoose';

/**
 * Usage of one period-bound quota feature by one organization in one period. `used` never
 * exceeds the cap at the moment of the consume; `overage` records units consumed beyond the cap
 * where the plan allows overage (billed at month end).
 */
export const usageCounterSchema = new Schema({
  org_id: { type: String, required: true },
  feature: { type: String, required: true },
  period_start: { type: Date, required: true },
  used: { type: Number, default: 0 },
  overage: { type: Number, default: 0 },
}, { versionKey: false });
usageCounterSchema.index({ org_id: 1, feature: 1, period_start: 1 }, { unique: true });

export type UsageCounter = InferSchemaType<typeof usageCounterSchema>;

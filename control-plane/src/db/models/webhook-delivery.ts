import { Schema, type InferSchemaType } from 'mongoose';

/** How long a delivery id is remembered; GitHub redelivers within hours, never after days. */
export const DELIVERY_TTL_SECONDS = 7 * 24 * 3600;

/**
 * A webhook delivery already accepted, keyed by its `X-GitHub-Delivery` id, so a replayed or
 * redelivered request queues nothing twice. Records expire after `DELIVERY_TTL_SECONDS`.
 */
export const webhookDeliverySchema = new Schema({
  _id: { type: String, required: true },
  event: { type: String, required: true },
  received_at: { type: Date, required: true },
}, { versionKey: false });
webhookDeliverySchema.index({ received_at: 1 }, { expireAfterSeconds: DELIVERY_TTL_SECONDS });

export type WebhookDelivery = InferSchemaType<typeof webhookDeliverySchema> & { _id: string };

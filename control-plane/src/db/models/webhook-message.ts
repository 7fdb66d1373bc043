import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * One event to deliver to one endpoint, and its delivery log. Kept in the database, so queued
 * and retrying deliveries survive a restart. `pending` until a 2xx answer (`delivered`) or until
 * the retry window after the first attempt ends (`failed`). `event_key` (deployment and event)
 * is unique per endpoint: an event is never queued twice for one endpoint.
 */
export const webhookMessageSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  /** `webhook`: `endpoint_id` is a WebhookEndpoint, the body is signed; `chat`: a ChatChannel, sent unsigned (chat-notifications/). */
  target: { type: String, enum: ['webhook', 'chat'], default: 'webhook' },
  endpoint_id: { type: String, required: true },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true },
  event: { type: String, required: true },
  event_key: { type: String, required: true },
  /** The exact JSON bytes sent (and signed) on every attempt. */
  body: { type: String, required: true },
  status: { type: String, enum: ['pending', 'delivered', 'failed'], default: 'pending' },
  created_at: { type: Date, required: true },
  first_attempt_at: { type: Date, default: null },
  next_attempt_at: { type: Date, required: true },
  /** A scheduler holds the message while it sends it, until this time. */
  lease_until: { type: Date, default: null },
  attempts: {
    type: [{ at: Date, status_code: { type: Number, default: null }, error: { type: String, default: null }, duration_ms: Number, _id: false }],
    default: [],
  },
}, { versionKey: false });
webhookMessageSchema.index({ endpoint_id: 1, event_key: 1 }, { unique: true });
webhookMessageSchema.index({ status: 1, next_attempt_at: 1 });
webhookMessageSchema.index({ endpoint_id: 1, created_at: -1 });

export type WebhookMessage = InferSchemaType<typeof webhookMessageSchema> & { _id: string };

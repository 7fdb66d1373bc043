import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/** The events an outgoing webhook endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['deployment.queued', 'deployment.succeeded', 'deployment.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * An outgoing webhook endpoint of a project. The signing secret is stored as is: the platform
 * must sign every delivery with it (it is shown to the customer once, at creation).
 */
export const webhookEndpointSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  url: { type: String, required: true },
  events: { type: [String], enum: WEBHOOK_EVENTS, required: true },
  secret: { type: String, required: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type WebhookEndpoint = InferSchemaType<typeof webhookEndpointSchema> & { _id: string };

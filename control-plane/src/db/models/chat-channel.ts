import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/** The chat apps a project can notify, each through its incoming webhook URL. */
export const CHAT_APPS = ['slack', 'discord', 'teams'] as const;
export type ChatApp = (typeof CHAT_APPS)[number];

/**
 * The events a chat channel can subscribe to. `agent.finished` is the hook point for agent
 * and workflow runs: it is documented and can be chosen, but nothing sends it yet.
 */
export const CHAT_EVENTS = ['deployment.succeeded', 'deployment.failed', 'feedback.negative', 'agent.finished'] as const;
export type ChatEvent = (typeof CHAT_EVENTS)[number];

/**
 * A chat notification channel of a project: a Slack, Discord or Microsoft Teams incoming
 * webhook. Whoever holds such a URL can post to the channel, so it is a secret: stored sealed
 * (secrets/secret-box.ts, purpose `chat-webhook-url`) and shown, after creation, only as
 * `url_hint` (origin, first path segment and the last four characters).
 */
export const chatChannelSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  app: { type: String, enum: CHAT_APPS, required: true },
  url_sealed: { type: String, required: true },
  url_hint: { type: String, required: true },
  events: { type: [String], enum: CHAT_EVENTS, required: true },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type ChatChannel = InferSchemaType<typeof chatChannelSchema> & { _id: string };

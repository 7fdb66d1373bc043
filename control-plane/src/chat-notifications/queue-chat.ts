/**
 * Queues a chat message for every channel of a project that subscribed to its event, formatted
 * for the channel's app, as outgoing webhook messages with `target: 'chat'`: the delivery loop
 * (outgoing-webhooks/deliver.ts) sends them with its retries, address checks and plan pause.
 */
import type { Models } from '../db/models/index.ts';
import type { ChatApp } from '../db/models/chat-channel.ts';
import type { ChatMessage } from './chat-message.ts';
import { formatForApp } from './format-for-app.ts';

/** Queues `msg` once per subscribed channel under `eventKey` (a repeat is ignored); returns how many were queued. */
export async function queueChatMessage(m: Models, projectId: string, eventKey: string, msg: ChatMessage, now: Date): Promise<number> {
  const channels = await m.ChatChannel.find({ project_id: projectId, events: msg.event }, { org_id: 1, app: 1 }).lean();
  let queued = 0;
  for (const c of channels) {
    try {
      await m.WebhookMessage.create({
        target: 'chat', endpoint_id: c._id, org_id: c.org_id, project_id: projectId, event: msg.event, event_key: eventKey,
        body: formatForApp(c.app as ChatApp, msg), created_at: now, next_attempt_at: now,
      });
      queued++;
    } catch (err) {
      // Already queued for this channel (the queue reported the event twice): nothing to do.
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
  }
  return queued;
}

/** Whether any channel of the project listens to `event` (saves building a message nobody gets). */
export async function anyChannelFor(m: Models, projectId: string, event: ChatMessage['event']): Promise<boolean> {
  return Boolean(await m.ChatChannel.exists({ project_id: projectId, events: event }));
}

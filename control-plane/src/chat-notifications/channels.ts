/**
 * Chat notification channels of a project (`/v1/projects/{id}/chat-notifications`, and the
 * dashboard's same routes). Creating one and sending a test message need `chat_notifications`
 * (pro) from the entitlement resolver; listing and deleting always work, so an organization that
 * downgraded can still see and remove what it set up (its deliveries are paused, see
 * outgoing-webhooks/deliver.ts). The webhook URL must be http(s) and resolve to public addresses
 * only (checked again at every delivery); it is stored sealed and never shown whole again.
 */
import { z } from 'zod';
import { CHAT_APPS, CHAT_EVENTS, type ChatApp, type ChatChannel } from '../db/models/chat-channel.ts';
import type { Models } from '../db/models/index.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { postOnce, type Attempt } from '../outgoing-webhooks/deliver.ts';
import { checkedAddress, type ResolveHost } from '../outbound/safe-fetch.ts';
import { chatChannelUrl, sealChatUrl } from '../outgoing-webhooks/chat-target.ts';
import { testMessage } from './event-messages.ts';
import { formatForApp } from './format-for-app.ts';

/** Channels one project may have. */
export const MAX_CHANNELS = 10;

const URL_RULE = 'must be an http or https URL of at most 2000 characters';

/** Body of `POST /projects/{id}/chat-notifications`; `events` defaults to every event. */
export const chatChannelBody = z.strictObject({
  app: z.enum(CHAT_APPS, { error: `must be one of ${CHAT_APPS.join(', ')}` }).describe('Which app the incoming webhook belongs to: `slack`, `discord` or `teams` (a Workflows or connector webhook)'),
  url: z.string({ error: URL_RULE }).max(2000, { error: URL_RULE }).describe('The incoming webhook URL the app gave you; a secret: never answered whole again'),
  events: z.array(z.enum(CHAT_EVENTS, { error: `must each be one of ${CHAT_EVENTS.join(', ')}` }), { error: 'must be a list of events' })
    .min(1, { error: 'must name at least one event' }).max(CHAT_EVENTS.length, { error: `must name at most ${CHAT_EVENTS.length} events` }).optional()
    .describe('Events to send; default all. `agent.finished` is reserved for agent and workflow runs and is not sent yet'),
}).meta({ id: 'CreateChatChannel' });

export const chatChannelSchema = z.object({
  id: z.string(),
  app: z.enum(CHAT_APPS),
  url_hint: z.string().describe('The webhook URL with its secret part left out: origin, first path segment and the last four characters'),
  events: z.array(z.enum(CHAT_EVENTS)),
  created_at: z.string(),
}).meta({ id: 'ChatChannel' });
export type ChatChannelView = z.infer<typeof chatChannelSchema>;

export const testResultSchema = z.object({
  delivered: z.boolean(),
  status_code: z.number().int().nullable().describe('What the app answered; null when nothing answered'),
  error: z.string().nullable(),
}).meta({ id: 'ChatTestResult' });

/** `https://hooks.slack.com/services/…Ab12`: enough to tell channels apart, not enough to post. */
export function urlHint(url: URL): string {
  const first = url.pathname.split('/').filter(Boolean)[0];
  const tail = `${url.pathname}${url.search}`.replace(/\/+$/, '').slice(-4);
  return `${url.origin}/${first ? `${first}/` : ''}…${tail}`;
}

const view = (c: Pick<ChatChannel, 'app' | 'url_hint' | 'events' | 'created_at'> & { _id: string }): ChatChannelView =>
  ({ id: c._id, app: c.app as ChatApp, url_hint: c.url_hint, events: [...c.events] as ChatChannelView['events'], created_at: new Date(c.created_at).toISOString() });

export interface ChannelCtx { m: Models; now: Date; upgradeUrl: string; allowHosts?: readonly string[]; resolveHost?: ResolveHost }

function parseUrl(raw: string): URL {
  let url: URL;
  try { url = new URL(raw); } catch { throw invalid('url', URL_RULE); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('url', URL_RULE);
  if (url.username || url.password) throw invalid('url', 'must not carry a user name or password');
  return url;
}

/** Registers a channel; the answer shows the URL only as `url_hint`. */
export async function createChannel(c: ChannelCtx, orgId: string, projectId: string, body: z.infer<typeof chatChannelBody>): Promise<ChatChannelView> {
  await requireFeature(c.m, orgId, 'chat_notifications', c.now, c.upgradeUrl);
  const url = parseUrl(body.url);
  await checkedAddress(url, 'url', c.allowHosts, c.resolveHost);
  if (await c.m.ChatChannel.countDocuments({ project_id: projectId }) >= MAX_CHANNELS) {
    throw new AppError(409, 'conflict', `A project can have at most ${MAX_CHANNELS} chat notification channels; delete one first`);
  }
  const created = await c.m.ChatChannel.create({
    org_id: orgId, project_id: projectId, app: body.app, url_sealed: await sealChatUrl(c.m, url.toString()), url_hint: urlHint(url),
    events: body.events ? [...new Set(body.events)] : [...CHAT_EVENTS], created_at: c.now,
  });
  return view(created.toObject());
}

export async function listChannels(m: Models, projectId: string): Promise<ChatChannelView[]> {
  const rows = await m.ChatChannel.find({ project_id: projectId }, { url_sealed: 0 }).sort({ created_at: 1, _id: 1 }).lean();
  return rows.map(view);
}

/** Removes a channel and its queued and logged messages. */
export async function deleteChannel(m: Models, projectId: string, channelId: string): Promise<void> {
  const gone = await m.ChatChannel.findOneAndDelete({ _id: channelId, project_id: projectId }).lean();
  if (!gone) throw notFound('chat notification channel');
  await m.WebhookMessage.deleteMany({ target: 'chat', endpoint_id: channelId });
}

/** Sends a test message now, once (no retry), and says what the app answered. */
export async function sendTestMessage(c: ChannelCtx, orgId: string, project: { _id: string; name: string }, siteUrl: string, channelId: string): Promise<z.infer<typeof testResultSchema>> {
  const channel = await c.m.ChatChannel.findOne({ _id: channelId, project_id: project._id }, { app: 1 }).lean();
  if (!channel) throw notFound('chat notification channel');
  await requireFeature(c.m, orgId, 'chat_notifications', c.now, c.upgradeUrl);
  const url = await chatChannelUrl(c.m, channelId);
  if (url === undefined) throw notFound('chat notification channel');
  const result: Attempt = await postOnce(url, formatForApp(channel.app as ChatApp, testMessage(project, siteUrl, c.now)), {}, c);
  return { delivered: result.error === null, status_code: result.status_code, error: result.error };
}

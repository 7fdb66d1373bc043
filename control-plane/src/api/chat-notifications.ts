/**
 * `/projects/{id}/chat-notifications`: the project's Slack, Discord and Microsoft Teams channels
 * (chat-notifications/channels.ts). Pro plan to create one or send a test message; listing and
 * deleting always work.
 */
import { z } from 'zod';
import { CHAT_EVENTS } from '../db/models/chat-channel.ts';
import { chatChannelBody, chatChannelSchema, createChannel, deleteChannel, listChannels, sendTestMessage, testResultSchema, type ChannelCtx } from '../chat-notifications/channels.ts';
import { defineRoute, type Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { siteUrlOf } from '../sites/site-url.ts';
import { projectParams, uuidParam } from './schemas.ts';

const TAGS = ['Chat notifications'];
const channelParams = z.object({ id: uuidParam, channelId: uuidParam.describe('Chat notification channel id (uuid)') });

const ctxOf = (deps: Deps): ChannelCtx => ({ m: deps.m, now: deps.now(), upgradeUrl: deps.env.UPGRADE_URL, allowHosts: deps.services.fetchAllowHosts });

const EVENTS_DOC = 'Events: `deployment.succeeded` and `deployment.failed` (with the failed pages and their errors, at most 10, '
  + 'a link to the deployment in the dashboard and one to the live site), `feedback.negative` (a reader\'s thumbs-down on a page, '
  + 'with their comment; at most 30 an hour per project) and `agent.finished` (reserved for agent and workflow runs; not sent yet). '
  + 'Slack gets Block Kit blocks with a `text` fallback, Discord one embed coloured by outcome (green, red, amber) with mentions disabled, '
  + 'Teams an Adaptive Card. Names, titles, errors and comments are neutralised: they cannot mention anyone, form a link or break the message.';

export const chatNotificationRoutes = [
  defineRoute({
    method: 'get', path: '/projects/:id/chat-notifications', operationId: 'listChatChannels', summary: 'List chat notification channels', tags: TAGS,
    description: 'Every channel of the project, oldest first. Webhook URLs are shown only as `url_hint`. Works on every plan, so a downgraded organization can see and delete what it set up.',
    auth: 'projects:read', params: projectParams,
    responses: { 200: { description: 'Channels', schema: z.object({ data: z.array(chatChannelSchema) }) } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      return { body: { data: await listChannels(deps.m, project._id) } };
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:id/chat-notifications', operationId: 'createChatChannel', summary: 'Add a chat notification channel', tags: TAGS,
    description: 'Pro plan (`chat_notifications`; else 402 `plan_required`). `url` is the incoming webhook URL from Slack, Discord or Microsoft Teams: '
      + 'http or https, no user name or password, resolving to public addresses only (checked again at every delivery). It is stored encrypted '
      + `and never answered whole again. \`events\` defaults to all of ${CHAT_EVENTS.join(', ')}. At most 10 channels per project (409). `
      + 'Deliveries are retried like outgoing webhooks (30 s, doubling, at most 6 h apart, for 24 h) and pause while the plan lacks the feature. ' + EVENTS_DOC,
    auth: 'projects:write', params: projectParams, body: chatChannelBody,
    responses: { 201: { description: 'Added', schema: chatChannelSchema } },
    async handler({ params, body, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      return { status: 201, body: await createChannel(ctxOf(deps), auth.orgId, project._id, body) };
    },
  }),
  defineRoute({
    method: 'delete', path: '/projects/:id/chat-notifications/:channelId', operationId: 'deleteChatChannel', summary: 'Remove a chat notification channel', tags: TAGS,
    description: 'Removes the channel and its queued messages. Works on every plan.',
    auth: 'projects:write', params: channelParams, responses: { 204: { description: 'Removed' } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      await deleteChannel(deps.m, project._id, params.channelId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:id/chat-notifications/:channelId/test', operationId: 'testChatChannel', summary: 'Send a test message', tags: TAGS,
    description: 'Pro plan. Sends one test message to the channel now, without retries, and answers what the app said: '
      + '`delivered` is true for a 2xx answer; otherwise `status_code` and `error` say why (an address that is no longer public is refused here too).',
    auth: 'projects:write', params: channelParams,
    responses: { 200: { description: 'What the chat app answered', schema: testResultSchema } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      return { body: await sendTestMessage(ctxOf(deps), auth.orgId, project, siteUrlOf(deps, project), params.channelId) };
    },
  }),
];

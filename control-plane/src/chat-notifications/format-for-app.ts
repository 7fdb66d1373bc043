/** The JSON body a chat app's incoming webhook receives for a message. */
import type { ChatApp } from '../db/models/chat-channel.ts';
import type { ChatMessage } from './chat-message.ts';
import { discordPayload } from './format-discord.ts';
import { slackPayload } from './format-slack.ts';
import { teamsPayload } from './format-teams.ts';

const FORMATTERS: Record<ChatApp, (msg: ChatMessage) => Record<string, unknown>> = { slack: slackPayload, discord: discordPayload, teams: teamsPayload };

/** `msg` formatted for `app`, serialised once (customer text cannot break the JSON). */
export function formatForApp(app: ChatApp, msg: ChatMessage): string {
  return JSON.stringify(FORMATTERS[app](msg));
}

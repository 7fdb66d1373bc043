/**
 * A chat message as Slack's incoming webhooks take it: Block Kit `blocks` with a `text`
 * fallback (notifications and screen readers use it). Customer text is neutralised for mrkdwn
 * (neutralise.ts); the failed pages and comments go in a code block, where Slack reads nothing.
 */
import type { ChatMessage, Line } from './chat-message.ts';
import { forSlack, forSlackCode } from './neutralise.ts';

const ICONS = { success: ':white_check_mark:', failure: ':x:', notice: ':speech_balloon:' } as const;

const line = (l: Line): string => l.map((p) => (typeof p === 'string' ? p : forSlack(p.customer))).join('');

/** The Slack payload of `msg`. */
export function slackPayload(msg: ChatMessage): Record<string, unknown> {
  const title = line(msg.title);
  const blocks: Record<string, unknown>[] = [{ type: 'section', text: { type: 'mrkdwn', text: `${ICONS[msg.outcome]} *${title}*` } }];
  if (msg.facts.length) blocks.push({ type: 'section', fields: msg.facts.map((f) => ({ type: 'mrkdwn', text: `*${f.label}*\n${line(f.value)}` })) });
  if (msg.details) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*${msg.details.label}*\n\`\`\`${msg.details.lines.map(forSlackCode).join('\n')}\`\`\`` } });
  if (msg.links.length) blocks.push({ type: 'actions', elements: msg.links.map((l) => ({ type: 'button', text: { type: 'plain_text', text: l.label }, url: l.url })) });
  return { text: title, blocks };
}

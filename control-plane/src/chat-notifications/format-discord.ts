/**
 * A chat message as Discord's webhooks take it: one embed, coloured by outcome, and
 * `allowed_mentions: { parse: [] }` so that nothing in it can ping anyone, whatever the text.
 * Customer text is escaped for Discord markdown besides (neutralise.ts).
 */
import type { ChatMessage, Line } from './chat-message.ts';
import { forDiscord, forDiscordCode } from './neutralise.ts';

/** Embed colours: green, red, amber. */
export const DISCORD_COLOURS = { success: 0x2eb67d, failure: 0xe01e5a, notice: 0xecb22e } as const;

const line = (l: Line): string => l.map((p) => (typeof p === 'string' ? p : forDiscord(p.customer))).join('');

/** The Discord payload of `msg`. */
export function discordPayload(msg: ChatMessage): Record<string, unknown> {
  const embed: Record<string, unknown> = {
    title: line(msg.title).slice(0, 256),
    color: DISCORD_COLOURS[msg.outcome],
    fields: [
      ...msg.facts.map((f) => ({ name: f.label, value: line(f.value).slice(0, 1024), inline: true })),
      ...(msg.links.length ? [{ name: 'Links', value: msg.links.map((l) => `[${l.label}](${l.url})`).join(' · ').slice(0, 1024), inline: false }] : []),
    ],
    timestamp: msg.at.toISOString(),
  };
  if (msg.links[0]) embed.url = msg.links[0].url;
  if (msg.details) embed.description = `**${msg.details.label}**\n\`\`\`\n${msg.details.lines.map(forDiscordCode).join('\n')}\n\`\`\``.slice(0, 4096);
  return { allowed_mentions: { parse: [] }, embeds: [embed] };
}

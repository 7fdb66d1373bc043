/**
 * A chat message as Microsoft Teams takes it through a Workflows (or the older connector)
 * incoming webhook: a `message` with one Adaptive Card attachment. The headline's colour follows
 * the outcome; links are `Action.OpenUrl` buttons. Customer text is neutralised for the card's
 * markdown (neutralise.ts); mentions need an entity the card never declares.
 */
import type { ChatMessage, Line } from './chat-message.ts';
import { forTeams } from './neutralise.ts';

const COLOURS = { success: 'Good', failure: 'Attention', notice: 'Warning' } as const;

const line = (l: Line): string => l.map((p) => (typeof p === 'string' ? p : forTeams(p.customer))).join('');

/** The Teams payload of `msg`. */
export function teamsPayload(msg: ChatMessage): Record<string, unknown> {
  const body: Record<string, unknown>[] = [{ type: 'TextBlock', text: line(msg.title), weight: 'Bolder', size: 'Medium', color: COLOURS[msg.outcome], wrap: true }];
  if (msg.facts.length) body.push({ type: 'FactSet', facts: msg.facts.map((f) => ({ title: f.label, value: line(f.value) })) });
  if (msg.details) {
    body.push({ type: 'TextBlock', text: msg.details.label, weight: 'Bolder', wrap: true, spacing: 'Medium' });
    for (const l of msg.details.lines) body.push({ type: 'TextBlock', text: forTeams(l), fontType: 'Monospace', wrap: true, spacing: 'None' });
  }
  return {
    type: 'message',
    attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4',
        body, actions: msg.links.map((l) => ({ type: 'Action.OpenUrl', title: l.label, url: l.url })), msteams: { width: 'Full' },
      },
    }],
  };
}

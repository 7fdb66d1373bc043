/**
 * The outgoing webhook events as the OpenAPI document's `webhooks` section: what an endpoint
 * registered in the dashboard receives, with the signature headers (signature.ts).
 */
import { z } from 'zod';
import { deploymentSchema } from '../api/schemas.ts';
import { WEBHOOK_EVENTS } from '../db/models/webhook-endpoint.ts';
import type { WebhookDoc } from '../http/openapi.ts';
import { EVENT_HEADER, ID_HEADER, REPLAY_WINDOW_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature.ts';
import { RETRY_WINDOW_MS } from './deliver.ts';

const WHEN: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'deployment.queued': 'A deployment was queued (a push, a webhook from GitHub, a trigger, a CI run).',
  'deployment.succeeded': 'A deployment finished `deployed` (also when its commit was already live and no build was needed).',
  'deployment.failed': 'A deployment finished `failed`; `data.deployment.error` says why.',
};

/** The delivery contract every event's description repeats. */
const how = () => `Signed: \`${SIGNATURE_HEADER}: v1=<hex>\` is HMAC-SHA256, keyed with the endpoint's secret (shown once when it was registered), `
  + `of \`<${TIMESTAMP_HEADER}>.<raw body>\`. Verify it over the raw bytes with a constant-time comparison and reject a timestamp more than `
  + `${REPLAY_WINDOW_SECONDS} s from your clock. \`${ID_HEADER}\` is the same on every retry of one event: use it to deduplicate. `
  + `Answer any 2xx within 10 s; anything else is retried with exponential backoff (30 s doubling, at most 6 h apart) for ${RETRY_WINDOW_MS / 3600_000} h. `
  + 'Redirects are not followed. Paused (kept queued) while the plan lacks outgoing webhooks.';

/** One entry per event, for `buildOpenApi`. */
export function webhookDocs(): Record<string, WebhookDoc> {
  return Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, {
    summary: WHEN[event],
    description: how(),
    headers: {
      [ID_HEADER]: 'Event id, `<deployment id>.<event>`',
      [EVENT_HEADER]: `\`${event}\``,
      [TIMESTAMP_HEADER]: 'Unix seconds when this attempt was sent',
      [SIGNATURE_HEADER]: '`v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>`',
    },
    schema: z.object({
      id: z.string().describe('Same as the Folio-Webhook-Id header'),
      type: z.literal(event),
      created_at: z.string().describe('When the event happened (ISO 8601)'),
      data: z.object({
        project: z.object({ id: z.string(), slug: z.string(), name: z.string(), site_url: z.string() }),
        deployment: deploymentSchema,
      }),
    }),
  }]));
}

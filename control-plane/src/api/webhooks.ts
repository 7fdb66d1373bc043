/** `POST /webhooks/github`: the GitHub App's deliveries (pushes, installation changes) for projects connected to their own repository. */
import type Koa from 'koa';
import { z } from 'zod';
import { AppError, invalid } from '../errors.ts';
import { defineRoute } from '../http/route.ts';
import { readStream } from '../uploads/upload-input.ts';
import { handleInstallationEvent, handleInstallationRepositories } from '../webhooks/github-installation-events.ts';
import { handlePush, type PushPayload } from '../webhooks/github-push.ts';
import { verifySignature } from '../webhooks/verify-signature.ts';

/** GitHub caps webhook payloads at 25 MB; anything bigger is not from GitHub. */
export const WEBHOOK_LIMIT_BYTES = 25 * 1024 * 1024;

const invalidSignature = (message: string) => new AppError(401, 'invalid_signature', message);

/** The raw bytes of the body: kept by the body parser when it read them, else read here. */
async function rawBody(ctx: Koa.Context): Promise<Buffer> {
  const kept = (ctx.request.body as Record<symbol, unknown> | undefined)?.[Symbol.for('unparsedBody')];
  if (typeof kept === 'string') return Buffer.from(kept);
  if (Buffer.isBuffer(kept)) return kept;
  return readStream(ctx.req, WEBHOOK_LIMIT_BYTES);
}

/** GitHub sends JSON, or a form with the JSON in `payload` when the hook's content type says so. */
function parsePayload(ctx: Koa.Context, raw: Buffer): Record<string, unknown> {
  let text = raw.toString('utf8');
  if (ctx.is('application/x-www-form-urlencoded')) text = new URLSearchParams(text).get('payload') ?? '';
  try {
    const value = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch { /* answered below */ }
  throw invalid('body', 'Malformed JSON; expected a GitHub webhook payload');
}

const outcome = z.object({
  status: z.enum(['pong', 'duplicate', 'ignored', 'handled']).describe('pong: ping answered; duplicate: this delivery id, or the pushed commit, was already handled; ignored: nothing to sync; handled: an installation change was applied'),
  reason: z.string().optional().describe('Why an event was ignored, or what an installation change did'),
}).meta({ id: 'WebhookOutcome' });
const queued = z.object({
  status: z.literal('queued'),
  deployments: z.array(z.string()).describe('Ids of the deployments (production syncs and branch previews) queued (or joined) for the pushed commit'),
}).meta({ id: 'WebhookQueued' });

export const webhookRoutes = [
  defineRoute({
    method: 'post', path: '/webhooks/github', operationId: 'githubWebhook', summary: 'GitHub App webhook', tags: ['Webhooks'],
    description: 'The webhook URL of the platform\'s GitHub App (events: push, installation, installation_repositories), signed with '
      + '`GITHUB_WEBHOOK_SECRET`. Needs no API key: every delivery must carry `X-Hub-Signature-256: sha256=<HMAC-SHA256 '
      + 'of the raw body>`, or it is refused with 401 `invalid_signature` and nothing is queued. A delivery id '
      + '(`X-GitHub-Delivery`) seen in the last 7 days answers `{ status: "duplicate" }`. `ping` answers `pong`. '
      + 'A `push` is matched to projects by GitHub\'s numeric ids, `installation.id` and `repository.id`, never by name: '
      + 'projects connected to that repository through that installation (linked to their organization) whose synced branch '
      + '(`github_branch`, default main) was pushed get a sync of the pushed commit each: 202 with their ids. '
      + 'A project that already has that commit queued or building, or live with nothing newer queued or building, '
      + 'is skipped; when every project is, the push answers `{ status: "duplicate" }` like a replayed delivery id. '
      + 'On pro and up, a push to any other branch queues a preview deployment of it for each such project (its id is among '
      + 'the 202\'s `deployments`), and a push deleting a branch (`deleted: true`) removes its previews (200 `ignored` with a reason saying so). '
      + '`installation` `deleted` unlinks the installation from its organization and `suspend` pauses it (its projects\' deployments fail saying why); '
      + '`installation_repositories` `removed` drops access to those repositories: 200 `handled` with a reason. '
      + 'Anything else is 200 `ignored` with a reason. Without a configured secret: 503 `webhooks_disabled`.',
    auth: 'none', bodyType: 'raw',
    responses: {
      200: { description: 'Handled without queueing: pong, duplicate or ignored', schema: outcome },
      202: { description: 'Syncs queued', schema: queued },
      401: { description: 'invalid_signature: missing, malformed or wrong X-Hub-Signature-256' },
      413: { description: 'payload_too_large: over GitHub\'s 25 MB cap' },
      503: { description: 'webhooks_disabled: GITHUB_WEBHOOK_SECRET is not set' },
    },
    async handler({ ctx, deps }) {
      const secret = deps.env.GITHUB_WEBHOOK_SECRET;
      if (!secret) throw new AppError(503, 'webhooks_disabled', 'GitHub webhooks are not enabled on this server; set GITHUB_WEBHOOK_SECRET', { expose: true });
      const raw = await rawBody(ctx);
      const header = ctx.get('x-hub-signature-256');
      if (!header) throw invalidSignature('Missing X-Hub-Signature-256 header; expected sha256=<HMAC-SHA256 of the body>');
      if (!/^sha256=[0-9a-f]{64}$/.test(header)) throw invalidSignature('Malformed X-Hub-Signature-256 header; expected sha256=<64 lowercase hex digits>');
      if (!verifySignature(secret, raw, header)) throw invalidSignature('X-Hub-Signature-256 does not match the body; expected a signature made with the webhook secret');

      const payload = parsePayload(ctx, raw);
      const delivery = ctx.get('x-github-delivery');
      const event = ctx.get('x-github-event');
      if (!delivery || delivery.length > 100) throw invalid('X-GitHub-Delivery', 'Required; expected the delivery id GitHub sends');
      if (!event) throw invalid('X-GitHub-Event', 'Required; expected the event name GitHub sends');
      try {
        await deps.m.WebhookDelivery.create({ _id: delivery, event, received_at: deps.now() });
      } catch (err: any) {
        if (err?.code === 11000) return { body: { status: 'duplicate' as const } };
        throw err;
      }
      try {
        if (event === 'ping') return { body: { status: 'pong' as const } };
        if (event === 'installation') return { body: await handleInstallationEvent(deps, payload) };
        if (event === 'installation_repositories') return { body: await handleInstallationRepositories(deps, payload) };
        if (event !== 'push') return { body: { status: 'ignored' as const, reason: `${event} events are not handled; only push, installation and installation_repositories` } };
        const result = await handlePush(deps, payload as PushPayload);
        return result.status === 'queued' ? { status: 202, body: result } : { body: result };
      } catch (err) {
        // Forget the id, so GitHub's redelivery of this same delivery is handled, not called a duplicate.
        await deps.m.WebhookDelivery.deleteOne({ _id: delivery }).catch(() => undefined);
        throw err;
      }
    },
  }),
];

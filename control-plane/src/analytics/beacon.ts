/**
 * The browser beacons on every site host: `POST /_folio/feedback` (page feedback) and
 * `POST /_folio/event` (searches and time on page), sent with `navigator.sendBeacon`. Feedback
 * may carry the reader's `comment` (at most 500 characters): it is not stored with analytics, only
 * handed to `onFeedback` (chat notifications of a thumbs-down). The host
 * decides the project (the site server resolved it), never the body. Bodies are JSON (sent as
 * `application/json` or `text/plain`), at most {@link BEACON_MAX_BYTES}, validated field by
 * field; each visitor (address and User-Agent, kept in memory only) may send
 * {@link BeaconLimits.burst} beacons at once, refilled at `perMinute`.
 *
 * Answers: `204` recorded; `400 invalid_request`; `405 method_not_allowed`; `413 payload_too_large`;
 * `415 unsupported_media_type`; `429 rate_limited` — all with `{ error, message }`.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { z } from 'zod';
import { issueMessage } from '../http/validate.ts';
import type { EventBody } from './event-input.ts';
import type { AnalyticsRecorder } from './recorder.ts';
import { visitOf } from './visit.ts';

export const BEACON_MAX_BYTES = 2048;
export const FEEDBACK_PATH = '/_folio/feedback';
export const EVENT_PATH = '/_folio/event';

const pagePath = z.string({ error: 'must be a string' }).min(1, { error: 'must be a path starting with /' }).max(512, { error: 'must be at most 512 characters' })
  .regex(/^\//, { error: 'must be a path starting with /' });
const feedbackBody = z.strictObject({
  path: pagePath, helpful: z.boolean({ error: 'must be true or false' }),
  comment: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
});
const eventBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('search'),
    query: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }),
    results: z.number({ error: 'must be an integer from 0 to 10000' }).int({ error: 'must be an integer from 0 to 10000' }).min(0, { error: 'must be an integer from 0 to 10000' }).max(10_000, { error: 'must be an integer from 0 to 10000' }),
    path: pagePath.optional(),
  }),
  z.strictObject({
    type: z.literal('engagement'),
    path: pagePath,
    ms: z.number({ error: 'must be an integer from 0 to 86400000' }).int({ error: 'must be an integer from 0 to 86400000' }).min(0, { error: 'must be an integer from 0 to 86400000' }).max(86_400_000, { error: 'must be an integer from 0 to 86400000' }),
  }),
], { error: 'must be one of search, engagement' });

/** Per-visitor beacon budget. */
export interface BeaconLimits { burst: number; perMinute: number }

export interface BeaconOptions {
  recorder: AnalyticsRecorder;
  trustProxy: boolean;
  /** Default 20 at once, 20 per minute. */
  limits?: BeaconLimits;
  /** Clock in ms (tests freeze it). */
  now?: () => number;
  /** Called with each recorded feedback (chat notifications); must not throw or wait. */
  onFeedback?(projectId: string, feedback: { path: string; helpful: boolean; comment?: string }): void;
}

class BeaconError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BEACON_MAX_BYTES) { reject(new BeaconError(413, 'payload_too_large', `Request body exceeds the ${BEACON_MAX_BYTES} byte limit`)); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parse<T>(schema: z.ZodType<T>, raw: Buffer): T {
  let json: unknown;
  try { json = JSON.parse(raw.toString('utf8')); } catch { throw new BeaconError(400, 'invalid_request', 'body: Unexpected text; expected a JSON object'); }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const { field, rule } = issueMessage(result.error.issues[0], json);
  throw new BeaconError(400, 'invalid_request', `${field || 'body'}: ${rule}`);
}

/** The site server's `handle` hook answering the beacon paths; false for every other path. */
export function beaconHandler(opts: BeaconOptions) {
  const limits = opts.limits ?? { burst: 20, perMinute: 20 };
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();

  function allow(key: string): boolean {
    const t = now();
    const b = buckets.get(key) ?? { tokens: limits.burst, at: t };
    b.tokens = Math.min(limits.burst, b.tokens + ((t - b.at) / 60_000) * limits.perMinute);
    b.at = t;
    if (buckets.size > 100_000) buckets.clear();
    buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  return async (req: http.IncomingMessage, res: http.ServerResponse, projectId: string): Promise<boolean> => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== FEEDBACK_PATH && pathname !== EVENT_PATH) return false;
    try {
      if (req.method !== 'POST') { res.setHeader('Allow', 'POST'); throw new BeaconError(405, 'method_not_allowed', `${req.method} is not allowed here; expected POST`); }
      const type = (req.headers['content-type'] ?? 'text/plain').split(';')[0].trim().toLowerCase();
      if (type !== 'application/json' && type !== 'text/plain') throw new BeaconError(415, 'unsupported_media_type', `Content-Type: Unexpected ${JSON.stringify(type.slice(0, 60))}; expected application/json`);
      if (Number(req.headers['content-length'] ?? 0) > BEACON_MAX_BYTES) throw new BeaconError(413, 'payload_too_large', `Request body exceeds the ${BEACON_MAX_BYTES} byte limit`);
      const visit = visitOf(req, { trustProxy: opts.trustProxy });
      const who = createHash('sha256').update(`${projectId}\n${visit.ip}\n${visit.userAgent}`).digest('base64url');
      if (!allow(who)) throw new BeaconError(429, 'rate_limited', 'Too many beacons from this visitor; try again in a minute');
      const raw = await readBody(req);
      let body: EventBody;
      if (pathname === FEEDBACK_PATH) {
        const fb = parse(feedbackBody, raw);
        body = { kind: 'feedback', vote: fb.helpful ? 'up' : 'down', path: fb.path };
        const comment = fb.comment?.trim();
        opts.onFeedback?.(projectId, { path: fb.path, helpful: fb.helpful, ...(comment ? { comment } : {}) });
      } else {
        const ev = parse(eventBody, raw);
        body = ev.type === 'search'
          ? { kind: 'search', query: ev.query.toLowerCase(), resultCount: ev.results, ...(ev.path ? { path: ev.path } : {}) }
          : { kind: 'engagement', path: ev.path, durationMs: ev.ms };
      }
      opts.recorder.record({ ...body, projectId, source: 'beacon', visit });
      res.statusCode = 204;
      res.end();
    } catch (err) {
      const e = err instanceof BeaconError ? err : new BeaconError(400, 'invalid_request', 'body: could not be read');
      if (!res.headersSent) {
        res.statusCode = e.status;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Connection', 'close');
        res.end(JSON.stringify({ error: e.code, message: e.message }));
      }
    }
    return true;
  };
}

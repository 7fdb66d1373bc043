/**
 * `POST /internal/v1/analytics/logs?format=jsonl|cloudfront` with `Authorization: Bearer
 * <ANALYTICS_INGEST_TOKEN>`: a CDN log file as the body (plain or gzip, as CloudFront delivers
 * it; at most {@link LOG_MAX_BYTES} either way). Answers `200` with an {@link IngestReport}.
 * Errors: `401 unauthorized`, `503 ingest_disabled` (no token configured), `400 invalid_request`
 * (unknown format, or a body that is not gzip nor text), `413 payload_too_large`. The token is
 * for the platform's log shipper, not for customers: a line can only count toward the project
 * its host serves.
 */
import { timingSafeEqual } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import Router from '@koa/router';
import type Koa from 'koa';
import { AppError, invalid, payloadTooLarge, unauthorized } from '../errors.ts';
import { routesWithAllow } from '../http/method-guard.ts';
import type { Deps } from '../http/route.ts';
import { LOG_FORMATS, type LogFormat } from './cdn-log-formats.ts';
import { ingestCdnLog } from './cdn-log-ingest.ts';
import type { AnalyticsRecorder } from './recorder.ts';

export const LOG_MAX_BYTES = 64 * 1024 * 1024;

async function readLimited(ctx: Koa.Context): Promise<Buffer> {
  if (Number(ctx.get('content-length') || 0) > LOG_MAX_BYTES) throw payloadTooLarge(`${LOG_MAX_BYTES} byte`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > LOG_MAX_BYTES) throw payloadTooLarge(`${LOG_MAX_BYTES} byte`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The log ingestion route as Koa middleware. */
export function logIngestApi(deps: Deps, recorder: AnalyticsRecorder): Koa.Middleware {
  const router = new Router({ prefix: '/internal/v1/analytics' });
  router.post('/logs', async (ctx) => {
    const token = deps.env.ANALYTICS_INGEST_TOKEN;
    if (!token) throw new AppError(503, 'ingest_disabled', 'CDN log ingestion is off: set ANALYTICS_INGEST_TOKEN to turn it on', { expose: true });
    const given = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!given || !sameSecret(given, token)) throw unauthorized('Missing or wrong ingest token');
    const format = (ctx.query.format ?? 'jsonl') as string;
    if (!LOG_FORMATS.includes(format as LogFormat)) throw invalid('format', `must be one of ${LOG_FORMATS.join(', ')}`);
    let bytes = await readLimited(ctx);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try { bytes = gunzipSync(bytes, { maxOutputLength: LOG_MAX_BYTES }); } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge(`${LOG_MAX_BYTES} byte`);
        throw invalid('body', 'Unexpected bytes; expected a gzip stream or text');
      }
    }
    ctx.body = await ingestCdnLog(deps.m, recorder, deps.env.SITES_DOMAIN, format as LogFormat, bytes.toString('utf8'));
  });
  return routesWithAllow(router);
}

/**
 * Upload grants for the local store (no presigning there): a URL on the control plane's internal
 * API carrying an HMAC of the platform's own secret (secrets/server-secret.ts, read once and then
 * kept) over the deployment, bucket key, size, Content-Type, Cache-Control and expiry:
 *
 *   PUT /internal/v1/uploads/<grant>   Content-Length: <size>, Content-Type: <type> → 204
 *
 * It is checked without any database read and writes just that key, `size` bytes, into the site
 * store; forged, altered, expired, another size or type: 403 and nothing written. It has no build
 * token to check: like a presigned S3 URL, it is the capability, and its expiry ends it. Writes
 * are counted for the restore of their deployment as the object routes' are (publish-rollback.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { methodNotAllowed } from '../http/method-guard.ts';
import { SlotsPerKey } from '../http/slots-per-key.ts';
import { trackWrite } from '../deploy/publish-rollback.ts';
import { serverSecret } from '../secrets/server-secret.ts';
import { siteStore } from '../uploads/site-files.ts';
import type { UploadSigner, UploadTarget } from './upload-target.ts';

/** The route's prefix; the grant follows it. */
export const LOCAL_UPLOAD_PATH = '/internal/v1/uploads/';
const PURPOSE = 'upload-grant';
const mac = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
const refused = (message: string) => new AppError(403, 'grant_refused', message);

export function localUploadSigner(m: Models): UploadSigner {
  return {
    async sign(t, _now, until) {
      const payload = Buffer.from(JSON.stringify([t.deploymentId, t.bucketKey, t.size, t.contentType, t.cacheControl, until.getTime()])).toString('base64url');
      return { url: `${LOCAL_UPLOAD_PATH}${payload}.${mac(await serverSecret(m, PURPOSE), payload)}`, headers: { 'content-type': t.contentType, 'cache-control': t.cacheControl } };
    },
  };
}

/** What `grant` allows, or 403 when it is forged, malformed or expired. */
function readGrant(secret: Buffer, grant: string, now: Date): UploadTarget {
  const [payload, given, ...rest] = grant.split('.');
  if (!payload || !given || rest.length > 0) throw refused('Unexpected upload grant; expected one the control plane made');
  const expected = Buffer.from(mac(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), expected)) throw refused('Unexpected upload grant; expected one the control plane made');
  const [deploymentId, bucketKey, size, contentType, cacheControl, exp] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string, number, string, string, number];
  if (exp <= now.getTime()) throw refused('Upload grant expired; ask for a new one');
  return { deploymentId, bucketKey, size, contentType, cacheControl };
}

/** The signed upload route; mount beside the job routes (ci-api.ts). */
export function localUploadRoute(deps: Deps, maxUploadsPerJob: number): Koa.Middleware {
  // A slow upload holds a file: one build cannot hold them all.
  const uploads = new SlotsPerKey(maxUploadsPerJob, () => new AppError(429, 'rate_limited', `Too many uploads in flight; expected at most ${maxUploadsPerJob} per deployment`));
  return async (ctx, next) => {
    if (!ctx.path.startsWith(LOCAL_UPLOAD_PATH)) return next();
    if (ctx.method !== 'PUT') throw methodNotAllowed(ctx.method, ['PUT']);
    const secret = await serverSecret(deps.m, PURPOSE);
    // Checked and counted in one step: a restore that waited for the grant's expiry sees this write.
    const t = readGrant(secret, ctx.path.slice(LOCAL_UPLOAD_PATH.length), deps.now());
    const length = ctx.get('content-length');
    if (!/^\d{1,16}$/.test(length)) throw new AppError(411, 'length_required', 'Missing Content-Length header; expected the size granted');
    if (Number(length) !== t.size) throw refused(`Unexpected Content-Length ${length}; expected the size granted, ${t.size}`);
    if (ctx.get('content-type') !== t.contentType) throw refused('Unexpected Content-Type; expected the one granted');
    const written = trackWrite(t.deploymentId);
    try {
      const release = uploads.acquire(t.deploymentId);
      try {
        await siteStore(deps).putStream(t.bucketKey, { chunks: ctx.req, size: t.size }, { contentType: t.contentType, cacheControl: t.cacheControl });
      } finally {
        release();
      }
    } finally {
      written();
    }
    ctx.status = 204;
  };
}

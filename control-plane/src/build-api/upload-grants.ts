/**
 * Upload grants: a build asks once for a batch of the objects it is about to write and sends
 * their bytes straight to storage, not through this process.
 *
 *   POST /internal/v1/jobs/:id/uploads   Bearer <build token>, X-Folio-Fencing,
 *        { objects: [{ key, size, content_type?, cache_control? }] } (at most 256)
 *        → 200 { expires_in_ms, objects: [{ key, url, headers }] }
 *
 * The lease is verified once per batch; every key is confined to the deployment's prefixes
 * exactly as the object routes' PUT is (`job-keys.ts`: never `rollback/`, another project's
 * prefix or a `..` path) and what it holds is preserved before the answer
 * (deploy/publish-rollback.ts: a server-side copy on S3, a hard link in a local folder). Each
 * grant is a presigned S3 PUT or a signed URL of the control plane's local upload route
 * (upload-signer.ts), for that key, size, Content-Type and Cache-Control only, expiring after
 * `GRANT_TTL_MS` and never after the lease, which the request renews as a heartbeat does. The
 * latest expiry is recorded on the deployment, so a
 * failed attempt's restore waits for every grant to end. Deletes stay on the object routes' DELETE
 * (few per build), and reads (GET, HEAD, list) on their GETs: few and small.
 */
import { assertKey, cacheControlFor, contentTypeFor, grantRequest, type GrantAnswer } from '@folio/builder';
import type Koa from 'koa';
import { AppError, invalid, payloadTooLarge } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { assertPlainJson, validate } from '../http/validate.ts';
import { buildPrefixesOf } from '../sites/bucket-prefixes.ts';
import { MAX_GRANT_MS, noteGrants, preserveManyBeforeWrite, trackWrite } from '../deploy/publish-rollback.ts';
import { publishingDeployment } from './job-lease.ts';
import { bucketKeyOf } from './job-keys.ts';
import { uploadSignerOf } from './upload-signer.ts';

/** How long a grant is usable at most (less when the lease ends sooner). */
export const GRANT_TTL_MS = MAX_GRANT_MS;
/** A build token expiring sooner than this gets no grant. */
const MIN_GRANT_MS = 1_000;

const leaseEnding = () => new AppError(409, 'lease_lost', 'This build no longer holds the deployment\'s lease; another worker has taken it over or it has finished');

/** The handler of `POST /jobs/:id/uploads` (mounted by ci-api.ts behind a JSON body parser); `maxObjectBytes`: the largest object a build may upload. */
export function uploadGrants(deps: Deps, maxObjectBytes: number): Koa.Middleware {
  return async (ctx) => {
    const deploymentId = ctx.params.id as string;
    // Counted before the lease check, as the object routes' writes are: a restore in this process waits for it.
    const written = trackWrite(deploymentId);
    try {
      const d = await publishingDeployment(deps, ctx, deploymentId);
      assertPlainJson(ctx.request.body);
      const { objects } = validate(grantRequest, ctx.request.body ?? {}, 'body');
      const prefixes = buildPrefixesOf(d);
      const targets = objects.map((o, i) => {
        try {
          assertKey(o.key);
        } catch (err) {
          throw invalid(`objects.${i}.key`, (err as Error).message);
        }
        if (o.size > maxObjectBytes) throw payloadTooLarge(`${maxObjectBytes / 1024 / 1024} MB per object (objects.${i}: ${o.key})`);
        return {
          deploymentId, bucketKey: bucketKeyOf(prefixes, o.key), size: o.size,
          contentType: o.content_type ?? contentTypeFor(o.key), cacheControl: o.cache_control ?? cacheControlFor(o.key),
        };
      });
      const now = deps.now();
      // Asking for grants renews the lease as a heartbeat does, so a grant is never cut short by a
      // heartbeat still on its way; it never outlives the lease so renewed, nor the build token.
      const leaseUntil = new Date(now.getTime() + deps.env.BUILD_LEASE_MS);
      const until = new Date(Math.min(now.getTime() + GRANT_TTL_MS, leaseUntil.getTime(), d.token_expires_at?.getTime() ?? 0));
      if (until.getTime() - now.getTime() < MIN_GRANT_MS) throw leaseEnding();
      // Recorded first (and only while the lease holds): a restore from now on waits out these grants.
      if (!await noteGrants(deps.m, d, until, leaseUntil, now)) throw leaseEnding();
      await preserveManyBeforeWrite(deps.m, d, targets.map((t) => t.bucketKey));
      const signer = uploadSignerOf(deps);
      const granted = await Promise.all(targets.map((t) => signer.sign(t, now, until)));
      const answer: GrantAnswer = { expires_in_ms: until.getTime() - now.getTime(), objects: granted.map((g, i) => ({ key: objects[i].key, ...g })) };
      ctx.body = answer;
    } finally {
      written();
    }
  };
}

/**
 * Deployments built in a customer's CI (the builder image as a CI step), beside the internal
 * build API:
 *
 *   POST /internal/v1/ci/deployments   Bearer <API key with deployments:trigger>,
 *                                      { project_id, commit_sha } → 201 job
 *   GET|HEAD|PUT|DELETE /internal/v1/jobs/:id/objects/<key>   Bearer <build token>, X-Folio-Fencing
 *   GET /internal/v1/jobs/:id/objects?prefix=<p>              → { keys } (relative, sorted)
 *   POST /internal/v1/jobs/:id/uploads                        grants to PUT a batch of objects
 *                                                             straight to storage (upload-grants.ts)
 *   PUT /internal/v1/uploads/<grant>                          a granted upload into the local
 *                                                             store (local-upload-grant.ts)
 *
 * The job is the one a worker's claim gets (deployment id, fencing, build token, lease, project,
 * site) without `source` (the CI run has its own checkout; the platform's Git credentials stay
 * here) and with `store`, the object routes it publishes through: a CI run holds no storage
 * credentials. Every object route checks the lease (build token, fencing, expiry) and is confined
 * to the prefixes of its site (production's or a preview's); keys are relative to its site
 * (`job-keys.ts` keeps the builder's state out of the public prefix). The run then reports
 * through the ordinary `/jobs/:id/heartbeat|pages|complete` routes. Every PUT and DELETE first
 * preserves what the key held (deploy/publish-rollback.ts), so an attempt that does not end deployed is
 * undone; the preserved objects live under `rollback/`, which no job key can reach.
 */
import Router from '@koa/router';
import { assertKey, MAX_GRANTS_PER_REQUEST } from '@folio/builder';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { z } from 'zod';
import { authenticate } from '../auth/api-keys.ts';
import { hasScope } from '../auth/scopes.ts';
import { AppError, forbidden, invalid, payloadTooLarge } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { methodNotAllowed, routesWithAllow } from '../http/method-guard.ts';
import { SlotsPerKey } from '../http/slots-per-key.ts';
import { assertPlainJson, validate } from '../http/validate.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { siteUrlOf } from '../sites/site-url.ts';
import { siteStore } from '../uploads/site-files.ts';
import { bucketKeyOf, listingsOf, sharedKeyOf } from './job-keys.ts';
import { buildPrefixesOf, sitePrefix } from '../sites/bucket-prefixes.ts';
import { preserveBeforeWrite, trackWrite } from '../deploy/publish-rollback.ts';
import { startCiDeployment } from '../deploy/queue.ts';
import { publishingDeployment } from './job-lease.ts';
import { localUploadRoute } from './local-upload-grant.ts';
import { uploadGrants } from './upload-grants.ts';

/**
 * Largest object a build may upload (a page, a search shard, an asset, `llms-full.txt`, the
 * largest by far on big sites: control-plane/docs/benchmarks.md). Uploads are streamed to
 * storage, so the size costs no memory here.
 */
export const MAX_OBJECT_BYTES = 512 * 1024 * 1024;

/** Uploads in flight at most per deployment (the builder sends 16 at a time). */
export const MAX_UPLOADS_PER_JOB = 32;

const createBody = z.strictObject({
  project_id: z.string().min(1).max(100),
  commit_sha: z.string().regex(/^[0-9a-f]{40}$/, 'must be a full 40-character lowercase hex commit id'),
});

const OBJECT_PATH = /^\/internal\/v1\/jobs\/([^/]+)\/objects(?:\/(.*))?$/;

/** The relative key of a request path, decoded segment by segment; 400 when it leaves the prefix. */
function keyOf(raw: string): string {
  let key: string;
  try {
    key = raw.split('/').map((s) => decodeURIComponent(s)).join('/');
  } catch {
    throw invalid('key', 'Unexpected percent-encoding; expected a URL-encoded object key');
  }
  try {
    assertKey(key);
  } catch (err) {
    throw invalid('key', (err as Error).message);
  }
  return key;
}

/** A list prefix: empty, or a key that may end with `/`. */
function listPrefixOf(value: unknown): string {
  if (value === undefined || value === '') return '';
  if (typeof value !== 'string') throw invalid('prefix', 'Unexpected repeated parameter; expected one prefix');
  try {
    assertKey(value.endsWith('/') ? value.slice(0, -1) : value);
  } catch (err) {
    throw invalid('prefix', (err as Error).message);
  }
  return value;
}

/** A PUT's declared size: 411 without one (the body is streamed to storage), 413 over the limit. */
function declaredSize(ctx: Koa.Context): number {
  const value = ctx.get('content-length');
  if (!/^\d{1,16}$/.test(value)) throw new AppError(411, 'length_required', 'Missing Content-Length header; expected the object\'s size in bytes');
  const size = Number(value);
  if (size > MAX_OBJECT_BYTES) throw payloadTooLarge(`${MAX_OBJECT_BYTES / 1024 / 1024} MB`);
  return size;
}

/** The object routes of a job, scoped to its build token and confined to its project's prefix. */
function objectRoutes(deps: Deps): Koa.Middleware {
  // A slow upload holds a file or a storage connection: one build cannot hold them all.
  const uploads = new SlotsPerKey(MAX_UPLOADS_PER_JOB, () => new AppError(429, 'rate_limited', `Too many uploads in flight; expected at most ${MAX_UPLOADS_PER_JOB} per deployment`));
  return async (ctx, next) => {
    const match = OBJECT_PATH.exec(ctx.path);
    if (!match) return next();
    let deploymentId: string;
    try {
      deploymentId = decodeURIComponent(match[1]);
    } catch {
      throw invalid('id', 'Unexpected percent-encoding; expected a deployment id');
    }
    // A write is counted before its lease check: a restore revokes the token, then waits for the
    // writes that may have passed the check (deploy/publish-rollback.ts).
    const written = ctx.method === 'PUT' || ctx.method === 'DELETE' ? trackWrite(deploymentId) : undefined;
    try {
      await serve(ctx, deploymentId, match[2]);
    } finally {
      written?.();
    }
  };

  async function serve(ctx: Koa.Context, deploymentId: string, rawKey: string | undefined): Promise<void> {
    const store = siteStore(deps);
    const d = await publishingDeployment(deps, ctx, deploymentId);
    const prefixes = buildPrefixesOf(d);
    if (rawKey === undefined || rawKey === '') {
      if (ctx.method !== 'GET') throw methodNotAllowed(ctx.method, ['GET']);
      const listings = listingsOf(prefixes, listPrefixOf(ctx.query.prefix));
      const keys = await Promise.all(listings.map(async (l) => (await store.list(l.prefix)).map(l.toJobKey)));
      ctx.body = { keys: keys.flat().sort() };
      return;
    }
    const jobKey = keyOf(rawKey);
    const key = bucketKeyOf(prefixes, jobKey);
    // Reads only: writes and deletes never leave the build's own prefixes.
    const shared = sharedKeyOf(prefixes, jobKey);
    switch (ctx.method) {
      case 'GET': {
        const bytes = (await store.get(key)) ?? (shared ? await store.get(shared) : undefined);
        if (!bytes) throw new AppError(404, 'not_found', 'object not found');
        ctx.type = 'application/octet-stream';
        // A view of the bytes, not a copy: a large site's `llms-full.txt` is tens of megabytes (docs/benchmarks.md).
        ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return;
      }
      case 'HEAD': {
        const head = (await store.head(key)) ?? (shared ? await store.head(shared) : undefined);
        if (!head) { ctx.status = 404; return; }
        ctx.status = 200;
        ctx.set('ETag', `"${head.etag}"`);
        ctx.set('X-Folio-Size', String(head.size));
        if (head.contentType) ctx.set('X-Folio-Content-Type', head.contentType);
        return;
      }
      case 'PUT': {
        const size = declaredSize(ctx);
        const release = uploads.acquire(deploymentId);
        const contentType = ctx.get('x-folio-content-type') || undefined;
        const cacheControl = ctx.get('x-folio-cache-control') || undefined;
        try {
          // What the key held is kept until the deployment ends, so a failure can put it back.
          await preserveBeforeWrite(deps.m, d, key);
          await store.putStream(key, { chunks: ctx.req, size }, { contentType, cacheControl });
        } finally {
          release();
        }
        ctx.status = 204;
        return;
      }
      case 'DELETE':
        await preserveBeforeWrite(deps.m, d, key);
        await store.delete([key]);
        ctx.status = 204;
        return;
      default:
        throw methodNotAllowed(ctx.method, ['GET', 'HEAD', 'PUT', 'DELETE']);
    }
  }
}

/**
 * The CI routes: creating a CI deployment with an API key, and the object routes of every job.
 * Mount beside `internalApi`.
 */
export function ciApi(deps: Deps): Koa.Middleware {
  const router = new Router({ prefix: '/internal/v1' });
  const json = koaBody({ jsonLimit: '16kb', jsonStrict: true, text: false, urlencoded: false });
  router.post('/ci/deployments', json, async (ctx) => {
    const now = deps.now();
    const key = await authenticate(deps.m, ctx.get('authorization') || undefined, now);
    if (!hasScope(key.scopes, 'deployments:trigger')) throw forbidden('deployments:trigger');
    assertPlainJson(ctx.request.body);
    const body = validate(createBody, ctx.request.body ?? {}, 'body');
    const project = await findOwnProject(deps.m, key.orgId, body.project_id);
    const leaseMs = deps.env.BUILD_LEASE_MS;
    const job = await startCiDeployment(deps.m, project._id, { commitSha: body.commit_sha, owner: `ci:${key.id}` }, now, leaseMs);
    const id = job.deployment._id;
    ctx.status = 201;
    ctx.set('Location', `${deps.env.publicApiUrl}/projects/${project._id}/deployments/${id}`);
    ctx.body = {
      deployment_id: id, fencing: job.deployment.fencing, token: job.token, lease_ms: leaseMs,
      commit_sha: job.deployment.commit_sha,
      project: { id: project._id, slug: project.slug },
      site: { prefix: sitePrefix(project._id), url: siteUrlOf(deps, project) },
      store: { url: `/internal/v1/jobs/${id}/objects` },
    };
  });
  // A batch of 256 grants: keys of at most 1,024 characters and their headers.
  const grantsJson = koaBody({ jsonLimit: `${MAX_GRANTS_PER_REQUEST * 2}kb`, jsonStrict: true, text: false, urlencoded: false });
  router.post('/jobs/:id/uploads', grantsJson, uploadGrants(deps, MAX_OBJECT_BYTES));
  const routes = routesWithAllow(router);
  const objects = objectRoutes(deps);
  const uploads = localUploadRoute(deps, MAX_UPLOADS_PER_JOB);
  return (ctx, next) => routes(ctx, () => objects(ctx, () => uploads(ctx, next)));
}

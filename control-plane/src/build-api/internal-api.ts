/**
 * The narrow internal HTTP API builder workers use (never the database):
 *
 *   POST /internal/v1/jobs/claim           Bearer WORKER_SECRET, { worker_id, wait_ms? } → 200 job | 204
 *   POST /internal/v1/jobs/:id/heartbeat   Bearer <build token>, { fencing } → 204
 *   POST /internal/v1/jobs/:id/log         Bearer <build token>, { fencing, lines } → 204 (appended to the live build log)
 *   POST /internal/v1/jobs/:id/pages       Bearer <build token>, { fencing, upserts, deletes } → 204 | 413 page_too_large
 *   POST /internal/v1/jobs/:id/complete    Bearer <build token>, { fencing, status, … } → 204
 *   POST /internal/v1/jobs/:id/release     Bearer <build token>, { fencing } → 204
 *
 * A build token is scoped to one deployment of one project and expires; a stale worker (its
 * fencing token superseded) gets 409 `lease_lost` and its report changes nothing. Request bodies
 * and the claim's answer are the builder's worker protocol (`@folio/builder/worker-protocol`),
 * one zod schema each for both sides.
 *
 * A claim with `wait_ms` (at most 30 s) that finds nothing waits for work on the control plane
 * (deploy/claim-waiters.ts) and answers as soon as it got a job, or 204 with `Folio-Claim-Waited` when
 * the wait ended empty: the worker may claim again at once. A 204 without that header (no wait
 * asked, too many claims waiting already, or an older control plane) means: poll after your
 * interval. The worker secret is checked before any wait, and a waiting claim whose client went
 * away stops waiting (a job it got meanwhile is handed back).
 */
import { readerAccessOf } from '../sites/reader-auth/reader-access-job.ts';
import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { ZodType } from 'zod';
import {
  CLAIM_WAITED_HEADER, claimRequest, completeRequest, fetchRequest, leaseRequest, logRequest, pagesRequest, type Job,
} from '@folio/builder/worker-protocol';
import { AppError, unauthorized } from '../errors.ts';
import { hasFeature } from '../entitlements/resolver.ts';
import { branchHead, repoPath } from '../git/managed-repos.ts';
import { refreshAdvertisements } from '../git/ref-advertisement.ts';
import type { Deps } from '../http/route.ts';
import { routesWithAllow } from '../http/method-guard.ts';
import { assertPlainJson, validate } from '../http/validate.ts';
import { BuildSourceError, githubBuildSource } from '../github/build-token.ts';
import { claimJob, type ClaimProject } from '../deploy/claim-job.ts';
import { claimWaitersOf, msUntilLeaseEnds } from '../deploy/claim-waiters.ts';
import { appendBuildLog, completeJob, heartbeat, releaseJob, verifyBuildToken, verifyLease, type LeaseProof } from '../deploy/queue.ts';
import { checkPageSizes, isDocumentTooLarge, pageTooLarge } from './page-report.ts';
import { buildPrefixesOf } from '../sites/bucket-prefixes.ts';
import { siteUrlOf } from '../sites/site-url.ts';
import { safeFetch } from '../outbound/safe-fetch.ts';

/**
 * A waiting claim tries again at least this often though nothing woke it: each try counts the
 * worker as asking for work (the `folio_builders{state="idle"}` metric looks back 15 s), and
 * finds a job queued through another control-plane replica.
 */
const CLAIM_RECHECK_MS = 10_000;

/** Largest document a build may fetch (`api.openapi` by URL); the builder reads at most this much. */
export const BUILD_FETCH_LIMIT_BYTES = 64 * 1024 * 1024;

function bearer(ctx: Koa.Context): string {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  if (!m) throw unauthorized('Missing build token');
  return m[1];
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The project fields {@link sourceOf} reads. */
export type SourceProject = { _id: string; slug: string; org_id: string; github_repo?: string | null; github_branch?: string | null; github_repo_id?: number | null; github_installation_id?: number | null };

/**
 * Where a project's repository is fetched from, and with which token: the managed repository
 * with the build token, or the project's own GitHub repository with a token of its
 * organization's App installation restricted to that repository (github/build-token.ts; throws
 * its BuildSourceError when there is none).
 */
export async function sourceOf(deps: Deps, project: SourceProject, buildToken: string, previewBranch?: string | null) {
  const branch = previewBranch ?? project.github_branch ?? 'main';
  if (project.github_repo) return { ...await githubBuildSource(deps, project), branch };
  const internal = deps.services.internalBaseUrl ?? deps.env.publicApiUrl.replace(/\/v1$/, '');
  return { url: `${internal}/git/${project.slug}.git`, branch, token: buildToken };
}

/**
 * The head of a managed repository's synced branch, or of a preview's branch; undefined for own
 * repositories (GitHub is not asked at claim time). `project` is the one the claim read (see
 * deploy/claim-job.ts); looked up only when a caller has none.
 */
async function managedHead(deps: Deps, projectId: string, previewBranch: string | null, known?: Pick<ClaimProject, 'github_repo' | 'github_branch'>): Promise<string | undefined> {
  const project = known ?? await deps.m.Project.findById(projectId, { github_repo: 1, github_branch: 1 }).lean();
  if (!project || project.github_repo) return undefined;
  return branchHead(deps, projectId, previewBranch ?? project.github_branch ?? 'main');
}

export function internalApi(deps: Deps, workerSecret: string | undefined): Koa.Middleware {
  const router = new Router({ prefix: '/internal/v1' });
  const json = koaBody({ jsonLimit: '64mb', jsonStrict: true, text: false, urlencoded: false });
  // A log request is at most 100 lines of 2,000 characters (protocol.ts): well under this.
  const smallJson = koaBody({ jsonLimit: '1mb', jsonStrict: true, text: false, urlencoded: false });
  const proofOf = (ctx: Koa.Context, body: { fencing: number }): LeaseProof => ({ deploymentId: ctx.params.id, fencing: body.fencing, token: bearer(ctx) });
  const bodyOf = <T>(ctx: Koa.Context, schema: ZodType<T>): T => { assertPlainJson(ctx.request.body); return validate(schema, ctx.request.body ?? {}, 'body'); };

  // Credentials are checked before a body (up to 64 MB of pages) is read.
  const workerFirst: Koa.Middleware = async (ctx, next) => {
    if (!workerSecret || !sameSecret(bearer(ctx), workerSecret)) throw unauthorized('Invalid worker secret');
    await next();
  };
  const tokenFirst: Koa.Middleware = async (ctx, next) => {
    await verifyBuildToken(deps.m, ctx.params.id, bearer(ctx), deps.now());
    await next();
  };

  router.post('/jobs/claim', workerFirst, json, async (ctx) => {
    const { worker_id, wait_ms } = bodyOf(ctx, claimRequest);
    const waiters = claimWaitersOf(deps.m);
    // The client went away (a worker stopping aborts its waiting claim): stop waiting.
    const gone = new AbortController();
    const onClose = () => { if (!ctx.res.writableFinished) gone.abort(); };
    ctx.res.once('close', onClose);
    const deadline = Date.now() + wait_ms;
    let job: Awaited<ReturnType<typeof claimJob>>;
    let source: Awaited<ReturnType<typeof sourceOf>> | undefined;
    let waited = wait_ms > 0;
    for (;;) {
      // Taken before the attempt: a job queued during it ends the wait below at once.
      const generation = waiters.generation;
      job = await claimJob(deps.m, worker_id, deps.now(), deps.env.BUILD_LEASE_MS, { headOf: (id, branch, project) => managedHead(deps, id, branch, project) });
      source = undefined;
      if (job?.project) {
        try {
          source = await sourceOf(deps, job.project, job.token, job.deployment.preview_label ? job.deployment.branch : null);
        } catch (err) {
          if (!(err instanceof BuildSourceError)) throw err;
          // No way to read the repository (no installation of the organization, GitHub refused):
          // the customer's to fix, so final; GitHub not answering is retried with backoff.
          const proof = { deploymentId: job.deployment._id, fencing: job.deployment.fencing, token: job.token };
          await completeJob(deps.m, proof, { status: 'failed', error: err.message, retryable: err.kind === 'app' }, deps.now()).catch(() => undefined);
          continue;
        }
      }
      const left = deadline - Date.now();
      if (job || gone.signal.aborted || left <= 0) break;
      // Also woken when the earliest lease runs out: nothing else signals a dead builder's job.
      // (At least 50 ms apart, so a clock that stands still cannot make the wait spin.)
      const leaseEnds = Math.max(50, await msUntilLeaseEnds(deps.m, deps.now()) ?? Infinity);
      const waiting = waiters.wait(generation, Math.min(left, CLAIM_RECHECK_MS, leaseEnds), gone.signal);
      if (!waiting) { waited = false; break; }
      await waiting;
      if (gone.signal.aborted) break;
    }
    if (job && gone.signal.aborted) {
      // Nobody will build it: hand it back at once rather than let its lease run out.
      await releaseJob(deps.m, { deploymentId: job.deployment._id, fencing: job.deployment.fencing, token: job.token }, deps.now()).catch(() => undefined);
      return;
    }
    if (!job) {
      ctx.status = 204;
      if (waited) ctx.set(CLAIM_WAITED_HEADER, String(wait_ms));
      return;
    }
    // The project as the claim read it (the fields the answer names): no second lookup.
    const { project } = job;
    if (!project || !source) throw new AppError(404, 'not_found', 'project not found');
    // The worker fetches the repository next: its ref advertisement is made while this answer
    // travels (git/ref-advertisement.ts), not when the fetch asks for it.
    if (!project.github_repo) refreshAdvertisements(repoPath(deps, project._id), 'git-upload-pack');
    const answer: Job = {
      deployment_id: job.deployment._id, fencing: job.deployment.fencing, token: job.token, lease_ms: deps.env.BUILD_LEASE_MS,
      commit_sha: job.deployment.commit_sha ?? null,
      project: { id: project._id, slug: project.slug },
      source,
      // A preview publishes under its own prefix (informational: the object routes decide) and is
      // built with production's URL: its canonical links point at production, and its pages are
      // byte for byte what production would serve for the commit (noindex and the banner are added
      // when served, sites/preview-page.ts), so the two share one incremental cache.
      site: { prefix: buildPrefixesOf(job.deployment).site, url: siteUrlOf(deps, project) },
      // Plan features the build applies, from the one entitlement resolver at claim time.
      features: { custom_css: await hasFeature(deps.m, project.org_id, 'custom_css', deps.now()), ...await readerAccessOf(deps.m, project._id, job.deployment._id) },
      // Builders publish through the job's object routes (ci-api.ts), confined to the prefix.
      store: { url: `/internal/v1/jobs/${job.deployment._id}/objects` },
    };
    ctx.body = answer;
  });
  router.post('/jobs/:id/heartbeat', tokenFirst, json, async (ctx) => {
    const body = bodyOf(ctx, leaseRequest);
    await heartbeat(deps.m, proofOf(ctx, body), deps.now(), deps.env.BUILD_LEASE_MS);
    ctx.status = 204;
  });
  router.post('/jobs/:id/release', tokenFirst, json, async (ctx) => {
    const body = bodyOf(ctx, leaseRequest);
    await releaseJob(deps.m, proofOf(ctx, body), deps.now());
    ctx.status = 204;
  });
  router.post('/jobs/:id/log', tokenFirst, smallJson, async (ctx) => {
    const body = bodyOf(ctx, logRequest);
    await appendBuildLog(deps.m, proofOf(ctx, body), body.lines, deps.now());
    ctx.status = 204;
  });
  router.post('/jobs/:id/pages', tokenFirst, json, async (ctx) => {
    const body = bodyOf(ctx, pagesRequest);
    const d = await verifyLease(deps.m, proofOf(ctx, body), deps.now());
    const now = deps.now();
    // The pages API describes production; a preview's pages live in its files only.
    if (d.preview_label) { ctx.status = 204; return; }
    if (body.upserts.length) {
      // A page too large to store is the customer's: 413 page_too_large naming it, never a 500 (page-report.ts).
      checkPageSizes(d.project_id, body.upserts, now);
      await deps.m.Page.bulkWrite(body.upserts.map((p) => ({
        updateOne: {
          // A URL belongs to one version: a page moved to another label by docs.json is updated, not duplicated.
          filter: { project_id: d.project_id, path: p.path },
          update: { $set: { ...p, updated_at: now } },
          upsert: true,
        },
      }))).catch((err: unknown) => {
        if (!isDocumentTooLarge(err)) throw err;
        const index = (err as { writeErrors?: Array<{ index?: number }> }).writeErrors?.[0]?.index;
        throw pageTooLarge(body.upserts[index ?? 0]?.path ?? 'a page');
      });
    }
    if (body.deletes.length) await deps.m.Page.deleteMany({ project_id: d.project_id, path: { $in: body.deletes } });
    ctx.status = 204;
  });
  // A build fetches a document its docs.json names by URL (api.openapi) through here: the build
  // process cannot reach the network itself, and this fetcher refuses private and loopback
  // addresses, so a customer's URL cannot reach the platform's own network.
  router.post('/jobs/:id/fetch', tokenFirst, json, async (ctx) => {
    const body = bodyOf(ctx, fetchRequest);
    await verifyLease(deps.m, proofOf(ctx, body), deps.now());
    const { fetchAllowHosts, fetchTimeoutMs } = deps.services;
    ctx.body = await safeFetch(body.url, { field: body.field, maxBytes: BUILD_FETCH_LIMIT_BYTES, timeoutMs: fetchTimeoutMs ?? 30_000, allowHosts: fetchAllowHosts });
    ctx.type = 'application/octet-stream';
  });
  router.post('/jobs/:id/complete', tokenFirst, json, async (ctx) => {
    const body = bodyOf(ctx, completeRequest);
    const { fencing: f, ...report } = body;
    await completeJob(deps.m, proofOf(ctx, { fencing: f }), report, deps.now());
    ctx.status = 204;
  });
  return routesWithAllow(router);
}

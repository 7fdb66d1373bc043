/**
 * Git smart HTTP for managed repositories at `/git/<slug>.git`, served by the Git services
 * themselves (git-service.ts), and the dumb protocol's files by `git http-backend` (CGI,
 * http-backend.ts). Credentials are per project: HTTP Basic with any user name and, as the password, an
 * API key of the project's organization (`projects:read` to fetch, `projects:write` to push) or
 * the build token of a deployment of that project (fetch only). A push that moves the synced
 * branch queues a deployment, and the client is told where to follow it and how it ended; a push
 * to another branch queues its preview (pro and up, previews/previews.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { recordAudit } from '../audit/record.ts';
import { authenticate, type AuthenticatedKey } from '../auth/api-keys.ts';
import type { Deployment } from '../db/models/index.ts';
import { hasScope } from '../auth/scopes.ts';
import { outcomeText } from '../deploy/deployment-outcome.ts';
import { siteUrlOf } from '../sites/site-url.ts';
import { deploymentForToken, enqueueDeployment } from '../deploy/queue.ts';
import { watchDeployment } from '../deploy/queue-events.ts';
import { dashboardOrigin } from '../env.ts';
import { AppError } from '../errors.ts';
import { methodNotAllowed } from '../http/method-guard.ts';
import type { Deps } from '../http/route.ts';
import { refuseAdvertisement, serveAdvertisement, serveExchange, smartRequest } from './git-service.ts';
import { runBackend, type Progress } from './http-backend.ts';
import { recordPushIntent } from './push-intents.ts';
import { branchHeads, repoPath } from './managed-repos.ts';
import { deletePreview, previewsAllowed, queuePreview, type PreviewProject } from '../previews/previews.ts';

const PATH = /^\/git\/([a-z0-9-]+)\.git(\/.*)$/;
/**
 * The paths `git http-backend` serves below a repository (smart HTTP, and the dumb protocol's
 * files) with their methods; anything else is answered here, in the API's error shape, and never
 * reaches the backend (which would answer `..` in a path with a bare 500).
 */
const SERVICES: readonly [RegExp, readonly string[]][] = [
  [/^\/info\/refs$/, ['GET']],
  [/^\/git-(?:upload|receive)-pack$/, ['POST']],
  [/^\/HEAD$/, ['GET']],
  [/^\/objects\/info\/(?:alternates|http-alternates|packs)$/, ['GET']],
  [/^\/objects\/[0-9a-f]{2}\/[0-9a-f]{38,62}$/, ['GET']],
  [/^\/objects\/pack\/pack-[0-9a-f]{40,64}\.(?:pack|idx)$/, ['GET']],
];

/** Refuses a path no Git service answers (404) or a method it does not take (405 with Allow). */
function checkService(method: string, rest: string): void {
  const service = SERVICES.find(([re]) => re.test(rest));
  if (service && !service[1].includes(method)) throw methodNotAllowed(method, service[1]);
  if (service) return;
  throw new AppError(404, 'not_found', `No Git service at ${rest.slice(0, 100)}; expected /info/refs, /git-upload-pack or /git-receive-pack`);
}

function challenge(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="Folio Git", charset="UTF-8"');
  ctx.body = { error: status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : 'not_found', message };
}

function basicPassword(header: string | undefined): string | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i >= 0 ? decoded.slice(i + 1) : undefined;
}

type Credential =
  | { kind: 'token'; deployment: Deployment | undefined }
  | { kind: 'key'; key: AuthenticatedKey }
  | { kind: 'invalid' };

/** What a Git request's password is: a build token (`bt_…`) and its deployment, a valid API key, or neither. */
async function credentialOf(deps: Deps, password: string): Promise<Credential> {
  if (password.startsWith('bt_')) return { kind: 'token', deployment: await deploymentForToken(deps.m, password, deps.now()) };
  try {
    return { kind: 'key', key: await authenticate(deps.m, `Bearer ${password}`, deps.now()) };
  } catch {
    return { kind: 'invalid' };
  }
}

export function gitHttpMiddleware(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match) return next();
    const [, slug, rest] = match;
    checkService(ctx.method, rest);
    const push = ctx.query.service === 'git-receive-pack' || rest === '/git-receive-pack';
    const password = basicPassword(ctx.get('authorization'));
    if (!password) return challenge(ctx, 401, 'Git access needs credentials: any user name and an API key as the password');
    // The project and the credential are looked up together: each Git request of a push and of a
    // build's fetch pays one round trip to the database for both, not one after the other.
    const [project, credential] = await Promise.all([deps.m.Project.findOne({ slug }).lean(), credentialOf(deps, password)]);
    let allowed = false;
    let keyId: string | undefined;
    if (credential.kind === 'token') {
      allowed = !push && Boolean(project) && credential.deployment?.project_id === project!._id;
    } else if (credential.kind === 'invalid') {
      return challenge(ctx, 401, 'Invalid credentials');
    } else if (project && credential.key.orgId === project.org_id) {
      const scope = push ? 'projects:write' : 'projects:read';
      if (!hasScope(credential.key.scopes, scope)) {
        const message = `This API key lacks the scope ${scope}, which Git ${push ? 'pushes' : 'fetches'} need; create a key with ${scope} in Settings → API keys and use it as the password`;
        // The advertisement is where git prints a refusal; the exchange (a client that skipped it) keeps the 403.
        const smart = smartRequest(ctx.method, rest, ctx.query);
        if (smart?.advertise) return refuseAdvertisement(ctx, smart.service, message);
        return challenge(ctx, 403, message);
      }
      allowed = true;
      keyId = credential.key.id;
    }
    // Another organization's repository answers exactly like a missing one.
    if (!project || project.github_repo || !allowed) return challenge(ctx, project && !allowed && password.startsWith('bt_') ? 401 : 404, 'repository not found');

    const gitdir = repoPath(deps, project._id);
    const smart = smartRequest(ctx.method, rest, ctx.query);
    // A project whose repository is missing is answered by the backend, as before (not found).
    if (!smart || !fs.existsSync(path.join(gitdir, 'HEAD'))) return runBackend(ctx, deps, project._id, rest);
    if (smart.advertise) return serveAdvertisement(ctx, gitdir, smart.service);
    if (!push) return serveExchange(ctx, gitdir, smart.service);
    const beforeAll = await branchHeads(deps, project._id);
    // Written before Git moves a branch, removed only once the deployments are queued: if this
    // process dies, or queueing fails, in between, another sweep finishes the push
    // (push-intents.ts, interrupted-pushes.ts). A push that moved nothing leaves an intent the
    // sweep finds nothing to do for.
    const done = await recordPushIntent(deps, project._id, beforeAll);
    // The deployment is queued before the push's response ends (see answerWithTrailer), so a
    // client that lists deployments right after `git push` returns sees it.
    await serveExchange(ctx, gitdir, smart.service, async (progress) => {
      const afterAll = await branchHeads(deps, project._id);
      const queued = await deployPushedBranches(deps, project, beforeAll, afterAll, { actorUserId: null, actorLabel: `api key ${keyId}`, via: 'git push', ip: ctx.ip }, progress);
      await done();
      if (queued.production && progress) await reportDeployment(deps, project, queued.production, progress);
    });
  };
}

/** Who moved the branches, for the audit log's `deployment.triggered` entries. */
export interface PushActor { actorUserId: string | null; actorLabel?: string; via: string; ip?: string | null }

/**
 * What a push does once it has moved branches (`before` and `after`: every branch with its
 * commit): the synced branch queues the production deployment, other branches their previews
 * (or say why not), deleted branches lose theirs; each deployment is recorded in the audit log.
 * Also run for commits the platform makes itself (the web editor's publish and merge), so they
 * deploy exactly as a push would. Answers the deployments queued.
 */
export async function deployPushedBranches(
  deps: Deps, project: PreviewProject & { github_branch?: string | null }, before: Map<string, string>, after: Map<string, string>, actor: PushActor, progress?: Progress,
): Promise<{ production?: string; previews: Map<string, { deploymentId: string; url: string }> }> {
  const branch = project.github_branch ?? 'main';
  const audit = (deploymentId: string, commit: string) => recordAudit(deps, {
    orgId: project.org_id, actorUserId: actor.actorUserId, actorLabel: actor.actorLabel, action: 'deployment.triggered',
    target: { type: 'deployment', id: deploymentId, name: project.slug }, details: { via: actor.via, commit_sha: commit }, ip: actor.ip,
  });
  const previews = await otherBranches(deps, project, branch, before, after, progress, audit);
  // Self-updating workflows whose code repository this is (services.onBranchesMoved); never waited for.
  void deps.services.onBranchesMoved?.(deps, project, before, after).catch((err) => console.error('workflow push trigger failed', err));
  const head = after.get(branch);
  if (!head || head === before.get(branch)) return { previews };
  const queued = await enqueueDeployment(deps.m, project._id, { commitSha: head, trigger: 'push', branch }, deps.now());
  await audit(queued._id, head);
  deps.services.wakeWorkers?.();
  return { production: queued._id, previews };
}

/** The dashboard's page of a deployment: where a person follows it (the API's URL answers 401 in a browser). */
export function deploymentPageUrl(deps: Deps, projectId: string, deploymentId: string): string {
  return `${dashboardOrigin(deps.env)}/projects/${encodeURIComponent(projectId)}/deployments/${encodeURIComponent(deploymentId)}`;
}

/** How many failed pages a push lists before "…and N more". */
export const PUSH_FAILED_PAGES = 10;

/** The failed pages of a deployment that went live anyway, as `file:line:column: message`, the first {@link PUSH_FAILED_PAGES}. */
export function failedPageLines(d: Pick<Deployment, 'status' | 'pages_failed' | 'error'>): string[] {
  if (d.status !== 'deployed' || !d.pages_failed) return [];
  const lines = (d.error ?? '').split('\n').filter((l) => l.trim());
  const shown = lines.slice(0, PUSH_FAILED_PAGES).map((l) => `  ${l}`);
  return lines.length > PUSH_FAILED_PAGES ? [...shown, `  …and ${lines.length - PUSH_FAILED_PAGES} more`] : shown;
}

/**
 * Push feedback, as GitHub prints pull-request links: where to follow the deployment, then its
 * outcome when it finishes within `PUSH_WAIT_MS`, else a line saying it is still running.
 */
async function reportDeployment(deps: Deps, project: { _id: string; slug: string; custom_domain?: string | null }, deploymentId: string, progress: Progress): Promise<void> {
  const follow = deploymentPageUrl(deps, project._id, deploymentId);
  progress(`Deployment ${deploymentId} queued — follow it at ${follow}`);
  const deadline = Date.now() + deps.env.PUSH_WAIT_MS;
  if (deps.env.PUSH_WAIT_MS === 0) return;
  while (Date.now() < deadline) {
    // Listening before reading: a change between the read and the wait is not missed. Woken by
    // the deployment's own queue events, so `git push` returns as soon as the site is live.
    const watch = watchDeployment(deps.m, deploymentId, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    const d = await deps.m.Deployment.findById(deploymentId).lean().catch((err: unknown) => { watch.stop(); throw err; });
    if (!d || d.status === 'deployed' || d.status === 'failed') {
      watch.stop();
      if (d) {
        progress(outcomeText(d, siteUrlOf(deps, project)));
        for (const line of failedPageLines(d)) progress(line);
      }
      return;
    }
    await watch.changed;
  }
  progress(`Deployment ${deploymentId} is still running; the site updates when it finishes`);
}

/**
 * Pushes to branches other than the synced one. On a plan with preview deployments each pushed
 * branch queues a preview, and the client is told where to follow it and where it will be
 * served; without, the push is accepted, deploys nothing, and the client is told why, so a pushed
 * branch never silently goes nowhere. A deleted branch's preview is removed on any plan.
 */
async function otherBranches(
  deps: Deps, project: PreviewProject, synced: string, before: Map<string, string>, after: Map<string, string>,
  progress: Progress | undefined, audit: (deploymentId: string, commit: string) => Promise<void>,
): Promise<Map<string, { deploymentId: string; url: string }>> {
  const queuedPreviews = new Map<string, { deploymentId: string; url: string }>();
  for (const [name] of before) {
    if (name !== synced && !after.has(name) && await deletePreview(deps, project._id, name)) progress?.(`Branch ${name} was deleted; its preview was removed`);
  }
  const pushed = [...after].filter(([name, sha]) => name !== synced && before.get(name) !== sha);
  if (pushed.length === 0) return queuedPreviews;
  const previews = await previewsAllowed(deps, project);
  for (const [name, sha] of pushed) {
    if (!previews) {
      progress?.(`Branch ${name} was pushed; only ${synced} deploys the site. Preview deployments of other branches need the Pro plan: ${deps.env.UPGRADE_URL}`);
      continue;
    }
    const queued = await queuePreview(deps, project, name, sha, 'push');
    if (!queued) {
      progress?.(`Branch ${name} was pushed; no preview is built because the project's slug is too long for a preview host (at most 53 characters)`);
      continue;
    }
    await audit(queued.deploymentId, sha);
    queuedPreviews.set(name, { deploymentId: queued.deploymentId, url: queued.preview.url });
    progress?.(`Preview of branch ${name} queued — follow it at ${deploymentPageUrl(deps, project._id, queued.deploymentId)}`);
    progress?.(`Preview URL: ${queued.preview.url}`);
  }
  return queuedPreviews;
}

/** How often push feedback checks its deployment when no event of it arrived (one finished by another replica). */
const POLL_MS = 1_000;

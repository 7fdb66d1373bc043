/**
 * Deployments in the dashboard: the list and a detail with what only the dashboard shows (the
 * trigger, the commit's message and author, the builder's step timings and the build log), the
 * `/v1` trigger (every role may redeploy), and Server-Sent Events: one deployment's status
 * changes, and a project's (or the organization's) deployments as they appear and change.
 */
import type Koa from 'koa';
import { z } from 'zod';
import { deploymentRoutes } from '../api/deployments.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { deploymentParams, deploymentSchema, listDeploymentsQuery, projectParams } from '../api/schemas.ts';
import { deploymentJson } from '../api/serialize.ts';
import type { Deployment } from '../db/models/index.ts';
import type { Trigger } from '../deploy/queue.ts';
import { queueEvents } from '../deploy/queue-events.ts';
import { notFound } from '../errors.ts';
import { validate } from '../http/validate.ts';
import type { Deps } from '../http/route.ts';
import { addCommitInfo, commitInfo } from './commit-info.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { streamDeployments } from './deployment-stream.ts';
import { requirePermission, requireSession, type DashboardSession } from './session-auth.ts';
import { passThrough, v1Route } from './v1-handlers.ts';

export const deploymentDetailSchema = deploymentSchema.extend({
  trigger: z.enum(['manual', 'api', 'push', 'webhook', 'ci']).describe('manual (a redeploy in the dashboard), api (POST /v1/projects/{id}/deployments with an API key), push (managed repository), webhook (own repository), ci'),
  stats: z.record(z.string(), z.unknown()).nullable().describe('What the builder reported: pages compiled, objects uploaded, timings per step (ms)'),
  commit_message: z.string().nullable().describe('The subject line of the commit built, read from the managed repository; null for own GitHub repositories and before it is known'),
  commit_author: z.string().nullable().describe('`Name <email>` of the commit\'s author; null when the message is'),
  log: z.array(z.string()).describe('The build log. While it builds, the lines the builder sends as it goes (steps as they end, failed pages as they are known), updated live on `…/events`; once it ended, each failed page as `error: file:line:column: message` (or the error that failed the build), warnings, steps with their timings, the outcome. At most 500 lines and 64 KB'),
}).meta({ id: 'DashboardDeployment' });

/** A deployment as the dashboard's detail page shows it. */
export function deploymentDetail(d: Deployment) {
  const commit = commitInfo(d);
  return {
    ...deploymentJson(d), trigger: (d.trigger ?? 'manual') as Trigger, stats: (d.stats as Record<string, unknown> | null) ?? null,
    commit_message: commit?.message ?? null, commit_author: commit?.author ?? null, log: d.log ?? [],
  };
}

async function findOwnDeployment(deps: Deps, orgId: string, projectId: string, deploymentId: string): Promise<Deployment> {
  const project = await findOwnProject(deps.m, orgId, projectId);
  const d = await deps.m.Deployment.findOne({ _id: deploymentId, project_id: project._id }).lean() as Deployment | null;
  if (!d) throw notFound('deployment');
  await addCommitInfo(deps, project, [d]);
  return d;
}

/** `GET /projects/{id}/deployments/events`: the project's deployments as they appear and change (deployment-stream.ts). */
function projectDeploymentEvents(): Koa.Middleware {
  return async (ctx) => {
    const deps = ctx.state.dashboardDeps as Deps;
    const session = ctx.state.session as DashboardSession;
    const params = validate(projectParams, ctx.params, 'path');
    const project = await findOwnProject(deps.m, session.orgId, params.id);
    await streamDeployments(ctx, deps, { projects: async () => [project._id], serialize: deploymentDetail, enrich: (rows) => addCommitInfo(deps, project, rows) });
  };
}

/** `GET /deployments/events`: the deployments of every project of the organization (the projects list follows it). */
function organizationDeploymentEvents(): Koa.Middleware {
  return async (ctx) => {
    const deps = ctx.state.dashboardDeps as Deps;
    const session = ctx.state.session as DashboardSession;
    await streamDeployments(ctx, deps, { projects: () => deps.m.Project.distinct('_id', { org_id: session.orgId }) as Promise<string[]>, serialize: deploymentDetail });
  };
}

/** How often the stream re-reads the deployment besides the queue's own events (which only this process sees). */
export const EVENTS_POLL_MS = 2_000;

/**
 * `GET …/events`: `event: deployment` with the detail now and at every change, until the
 * deployment is deployed or failed; then the stream ends. A comment line every poll keeps
 * proxies from closing an idle stream.
 */
function deploymentEvents(): Koa.Middleware {
  return async (ctx) => {
    const deps = ctx.state.dashboardDeps as Deps;
    const session = ctx.state.session as DashboardSession;
    const params = validate(deploymentParams, ctx.params, 'path');
    let last = await findOwnDeployment(deps, session.orgId, params.id, params.deploymentId);
    ctx.req.socket.setTimeout(0);
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
    const send = (d: Deployment) => res.write(`event: deployment\ndata: ${JSON.stringify(deploymentDetail(d))}\n\n`);
    send(last);
    const done = (d: Deployment) => d.status === 'deployed' || d.status === 'failed';
    if (done(last)) { res.end(); return; }
    await new Promise<void>((resolve) => {
      let checking = false;
      const check = async () => {
        if (checking) return;
        checking = true;
        try {
          const d = await deps.m.Deployment.findById(last._id).lean() as Deployment | null;
          if (!d) return finish();
          if (d.status !== last.status || d.finished_at?.getTime() !== last.finished_at?.getTime() || d.error !== last.error || JSON.stringify(d.log) !== JSON.stringify(last.log)) { last = d; send(d); }
          else res.write(': waiting\n\n');
          if (done(d)) finish();
        } catch { finish(); } finally { checking = false; }
      };
      const events = queueEvents(deps.m);
      const onEvent = (e: { deploymentId: string }) => { if (e.deploymentId === last._id) void check(); };
      const timer = setInterval(() => void check(), EVENTS_POLL_MS);
      const names = ['claimed', 'logged', 'finished', 'skipped', 'retried'] as const;
      for (const n of names) events.on(n, onEvent);
      function finish() {
        clearInterval(timer);
        for (const n of names) events.off(n, onEvent);
        res.end();
        resolve();
      }
      res.on('close', finish);
    });
  };
}

export function registerDeploymentRoutes(router: DashboardRouter, _deps: Deps): void {
  // Before `…/deployments/:deploymentId`, whose id would not match `events` anyway (a UUID).
  router.koa.get('/projects/:id/deployments/events', requireSession, requirePermission('projects.read'), projectDeploymentEvents());
  router.koa.get('/deployments/events', requireSession, requirePermission('projects.read'), organizationDeploymentEvents());
  const listV1 = v1Route(deploymentRoutes, 'listDeployments');
  router.add(defineDashboardRoute({
    method: 'get', path: listV1.path, operationId: 'dashboardListDeployments', permission: 'projects.read', summary: listV1.summary,
    description: 'Newest first, as `/v1`, each with what the detail shows (trigger, commit message and author, build log). Follow `…/deployments/events` for changes.',
    params: projectParams, query: listDeploymentsQuery,
    responses: { 200: { description: 'Deployments of the project', schema: z.object({ data: z.array(deploymentDetailSchema) }) } },
    async handler({ params, query, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const rows = await deps.m.Deployment.find({ project_id: project._id, ...(query.status ? { status: query.status } : {}) })
        .sort({ started_at: -1, _id: -1 }).limit(query.limit).lean() as Deployment[];
      await addCommitInfo(deps, project, rows);
      return { body: { data: rows.map(deploymentDetail) } };
    },
  }));
  router.add(passThrough(v1Route(deploymentRoutes, 'triggerDeployment'), { operationId: 'dashboardRedeploy', permission: 'deployments.trigger' }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/deployments/:deploymentId', operationId: 'dashboardGetDeployment', permission: 'projects.read', summary: 'A deployment with its trigger and step timings',
    description: 'The UI may poll this, or follow `…/events`.', params: deploymentParams,
    responses: { 200: { description: 'The deployment', schema: deploymentDetailSchema } },
    async handler({ params, session, deps }) {
      return { body: deploymentDetail(await findOwnDeployment(deps, session.orgId, params.id, params.deploymentId)) };
    },
  }));
  router.koa.get('/projects/:id/deployments/:deploymentId/events', requireSession, requirePermission('projects.read'), deploymentEvents());
}

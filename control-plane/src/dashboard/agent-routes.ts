/**
 * The writing agent in the dashboard (`writing_agent`, pro): start a run on a task, list a
 * project's runs, read one (steps, diff, preview URL), follow its steps as Server-Sent Events,
 * cancel it. The run's changes are on its branch `agent/<run id>`; the writer merges them with
 * the editor's `POST …/editor/merge`. See src/ai-writing/README.md.
 */
import type Koa from 'koa';
import { z } from 'zod';
import { agentRunModel, RUN_STATUSES, type AgentRun } from '../ai-writing/agent-run-store.ts';
import { cancelRun, runEvents, startRun } from '../ai-writing/agent-runner.ts';
import { modelNotConfigured, writingModel } from '../ai-writing/writing-model.ts';
import { recordAudit } from '../audit/record.ts';
import { headCommit } from '../editor/repo-files.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { requirePermission, requireSession, type DashboardSession } from './session-auth.ts';

export const MAX_STEPS_LIMIT = 50;
export const DEFAULT_MAX_STEPS = 20;
export const MAX_CREDITS_LIMIT = 2_000;
export const DEFAULT_MAX_CREDITS = 100;
/** Runs of one project that may be running at once. */
export const RUNNING_PER_PROJECT = 3;

const params = z.object({ id: z.string() });
const runParams = z.object({ id: z.string(), runId: z.string() });

const startBody = z.strictObject({
  task: z.string().trim().min(1, 'Required: say what the agent should do').max(4_000, 'must be at most 4000 characters'),
  max_steps: z.number().int().min(1, `must be 1-${MAX_STEPS_LIMIT}`).max(MAX_STEPS_LIMIT, `must be 1-${MAX_STEPS_LIMIT}`).optional()
    .describe(`Most tool calls the run may make (default ${DEFAULT_MAX_STEPS})`),
  max_credits: z.number().int().min(1, `must be 1-${MAX_CREDITS_LIMIT}`).max(MAX_CREDITS_LIMIT, `must be 1-${MAX_CREDITS_LIMIT}`).optional()
    .describe(`Most agent credits the run may spend (default ${DEFAULT_MAX_CREDITS}); it stops once it has spent them`),
});

const stepView = z.object({ n: z.number(), kind: z.enum(['tool', 'message', 'commit']), tool: z.string().nullable(), args: z.unknown(), ok: z.boolean(), summary: z.string(), at: z.string() });
const runSummary = z.object({
  id: z.string(), task: z.string(), status: z.enum(RUN_STATUSES), outcome: z.string().nullable(), branch: z.string(),
  credits: z.number(), tokens: z.number(), max_steps: z.number(), max_credits: z.number(), steps: z.number(),
  commit: z.string().nullable(), preview_url: z.string().nullable(), deployment_id: z.string().nullable(),
  started_by: z.string(), created_at: z.string(), finished_at: z.string().nullable(),
});
const runDetail = runSummary.omit({ steps: true }).extend({ steps: z.array(stepView), diff: z.string().nullable(), files: z.array(z.object({ path: z.string(), deleted: z.boolean(), renamed_from: z.string().nullable() })) });

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
function summaryOf(r: AgentRun): z.infer<typeof runSummary> {
  return {
    id: r._id, task: r.task, status: r.status, outcome: r.outcome ?? null, branch: r.branch,
    credits: r.credits ?? 0, tokens: r.tokens ?? 0, max_steps: r.max_steps, max_credits: r.max_credits, steps: r.steps.length,
    commit: r.commit ?? null, preview_url: r.preview_url ?? null, deployment_id: r.deployment_id ?? null,
    started_by: r.user_id, created_at: iso(r.created_at)!, finished_at: iso(r.finished_at),
  };
}
export function detailOf(r: AgentRun): z.infer<typeof runDetail> {
  return {
    ...summaryOf(r),
    steps: r.steps.map((s) => ({ n: s.n, kind: s.kind, tool: s.tool ?? null, args: s.args ?? null, ok: s.ok ?? true, summary: s.summary, at: iso(s.at)! })),
    diff: r.diff ?? null,
    files: r.writes.map((w) => ({ path: w.path, deleted: w.content === null || w.content === undefined, renamed_from: w.renamed_from ?? null })),
  };
}

async function ownRun(deps: Deps, session: DashboardSession, projectId: string, runId: string): Promise<AgentRun> {
  const project = await findOwnProject(deps.m, session.orgId, projectId);
  const run = await agentRunModel(deps.m).findOne({ _id: runId, project_id: project._id }).lean<AgentRun>();
  if (!run) throw notFound('agent run');
  return run;
}

/** `GET …/agent/runs/:runId/events`: `event: step` for each step (those so far first), then `event: done` with the run. */
function runEventsHandler(): Koa.Middleware {
  return async (ctx) => {
    const deps = ctx.state.dashboardDeps as Deps;
    const run = await ownRun(deps, ctx.state.session as DashboardSession, ctx.params.id, ctx.params.runId);
    ctx.req.socket.setTimeout(0);
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write('retry: 3000\n\n');
    let sent = 0;
    let closed = false;
    let reading = false;
    await new Promise<void>((resolve) => {
      const finish = () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        runEvents.off(`run:${run._id}`, check);
        res.end();
        resolve();
      };
      // The run document is the truth: steps are read from it, so a stream on another replica sees them too.
      async function read() {
        const now = await agentRunModel(deps.m).findById(run._id).lean<AgentRun>();
        if (!now || closed) return finish();
        for (const step of now.steps.slice(sent)) res.write(`event: step\ndata: ${JSON.stringify(detailOf({ ...now, steps: [step] }).steps[0])}\n\n`);
        sent = now.steps.length;
        if (now.status !== 'running') { res.write(`event: done\ndata: ${JSON.stringify(detailOf(now))}\n\n`); finish(); }
      }
      function check() {
        if (reading || closed) return;
        reading = true;
        read().catch(() => finish()).finally(() => { reading = false; });
      }
      const timer = setInterval(check, 1_000);
      runEvents.on(`run:${run._id}`, check);
      res.on('close', finish);
      check();
    });
  };
}

export function registerAgentRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/agent/runs', operationId: 'dashboardStartAgentRun', permission: 'content.edit',
    summary: 'Start the writing agent on a task',
    description: 'Pro plan and up (`writing_agent`). The agent works on a new branch `agent/<run id>` and never on the production branch; follow `…/events`, then merge the branch with `POST …/editor/merge`. Spends agent credits (1 per 1,000 tokens, rounded up per model call). 409 `ai_model_not_configured` without a model; 409 `agent_busy` when the project already has 3 runs going.',
    params, body: startBody,
    responses: { 202: { description: 'Started', schema: runSummary } },
    async handler({ params: p, body, session, deps, ctx }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      await requireFeature(deps.m, session.orgId, 'writing_agent', deps.now(), deps.env.UPGRADE_URL);
      const config = await writingModel(deps.m, deps.env, session.orgId);
      if (!config) throw modelNotConfigured();
      const runs = agentRunModel(deps.m);
      if (await runs.countDocuments({ project_id: project._id, status: 'running' }) >= RUNNING_PER_PROJECT) {
        throw new AppError(409, 'agent_busy', `This project already has ${RUNNING_PER_PROJECT} writing agent runs going; wait for one to finish or cancel one`);
      }
      const user = await deps.m.User.findById(session.userId).lean();
      const base = await headCommit(deps, project._id);
      const created = await runs.create({
        org_id: session.orgId, project_id: project._id, user_id: session.userId, task: body.task, status: 'running',
        branch: 'pending', base_commit: base, max_steps: body.max_steps ?? DEFAULT_MAX_STEPS, max_credits: body.max_credits ?? DEFAULT_MAX_CREDITS, created_at: deps.now(),
      });
      const branch = `agent/${created._id}`;
      await runs.updateOne({ _id: created._id }, { $set: { branch } });
      const run = { ...(created.toObject() as AgentRun), branch };
      await recordAudit(deps, { orgId: session.orgId, actorUserId: session.userId, action: 'agent_run.started', target: { type: 'project', id: project._id, name: project.slug }, details: { run_id: run._id, branch, task: body.task.slice(0, 200) }, ip: ctx.ip });
      startRun(deps, { run, project, config, by: { userId: session.userId, author: { name: user?.name || user?.email || 'Writer', email: user?.email ?? 'writer@invalid' }, ip: ctx.ip } });
      return { status: 202, body: summaryOf(run) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/agent/runs', operationId: 'dashboardListAgentRuns', permission: 'projects.read',
    summary: 'The project\'s writing agent runs, newest first (at most 50)', params,
    responses: { 200: { description: 'Runs', schema: z.object({ data: z.array(runSummary) }) } },
    async handler({ params: p, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      const rows = await agentRunModel(deps.m).find({ project_id: project._id }, { writes: 0, diff: 0 }).sort({ created_at: -1 }).limit(50).lean<AgentRun[]>();
      return { body: { data: rows.map((r) => summaryOf({ ...r, writes: [] })) } };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/agent/runs/:runId', operationId: 'dashboardGetAgentRun', permission: 'projects.read',
    summary: 'A writing agent run with its steps, diff and preview', params: runParams,
    responses: { 200: { description: 'The run', schema: runDetail } },
    async handler({ params: p, session, deps }) {
      return { body: detailOf(await ownRun(deps, session, p.id, p.runId)) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/agent/runs/:runId/cancel', operationId: 'dashboardCancelAgentRun', permission: 'content.edit',
    summary: 'Cancel a running writing agent run (what it wrote is not committed)', params: runParams,
    responses: { 202: { description: 'Cancelling', schema: runSummary } },
    async handler({ params: p, session, deps }) {
      const run = await ownRun(deps, session, p.id, p.runId);
      if (run.status !== 'running') throw new AppError(409, 'run_finished', `This run has already ended (${run.status}); nothing to cancel`);
      await cancelRun(deps, run._id);
      return { status: 202, body: summaryOf(run) };
    },
  }));
  router.koa.get('/projects/:id/agent/runs/:runId/events', requireSession, requirePermission('projects.read'), runEventsHandler());
}

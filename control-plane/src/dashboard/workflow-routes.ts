/**
 * Self-updating workflows in the dashboard (`self_updating_workflows`, Enterprise): create, list,
 * update and delete a project's workflows, start a run, and list runs with their credits and
 * outcomes. A run is a writing agent run (`…/agent/runs/:runId` shows its steps and diff). See
 * src/workflows/workflow-runner.ts and decision 126.
 */
import { z } from 'zod';
import { agentRunModel, RUN_STATUSES, type AgentRun } from '../ai-writing/agent-run-store.ts';
import { recordAudit } from '../audit/record.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { startWorkflowRun } from '../workflows/workflow-runner.ts';
import { PUBLISH_MODES, TRIGGER_KINDS, workflowModel, type Workflow } from '../workflows/workflow-store.ts';
import { DEFAULT_MAX_CREDITS, DEFAULT_MAX_STEPS, MAX_CREDITS_LIMIT, MAX_STEPS_LIMIT } from './agent-routes.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import type { DashboardSession } from './session-auth.ts';

const params = z.object({ id: z.string() });
const wfParams = z.object({ id: z.string(), workflowId: z.string() });

const fields = {
  name: z.string().trim().min(1, 'Required').max(100, 'must be at most 100 characters'),
  instructions: z.string().trim().min(1, 'Required: say what the agent should do on each run').max(4_000, 'must be at most 4000 characters'),
  trigger: z.enum(TRIGGER_KINDS, { error: `must be one of ${TRIGGER_KINDS.join(', ')}` }),
  source_project_id: z.string().nullable().optional().describe('`push`: the project whose managed repository holds the code (same organization, not this project)'),
  source_branch: z.string().trim().min(1).max(200).nullable().optional().describe('`push`: the branch whose pushes start a run (default main)'),
  every_minutes: z.number().int().min(5, 'must be 5-10080').max(10_080, 'must be 5-10080').nullable().optional().describe('`schedule`: minutes between runs'),
  publish: z.enum(PUBLISH_MODES, { error: 'must be review or direct' }).optional().describe('`review` (default): the run ends as a review branch; `direct`: a run that finishes cleanly is merged into production'),
  enabled: z.boolean().optional(),
  max_steps: z.number().int().min(1, `must be 1-${MAX_STEPS_LIMIT}`).max(MAX_STEPS_LIMIT, `must be 1-${MAX_STEPS_LIMIT}`).optional(),
  max_credits: z.number().int().min(1, `must be 1-${MAX_CREDITS_LIMIT}`).max(MAX_CREDITS_LIMIT, `must be 1-${MAX_CREDITS_LIMIT}`).optional(),
};
const createBody = z.strictObject(fields);
const updateBody = z.strictObject({ ...fields, name: fields.name.optional(), instructions: fields.instructions.optional(), trigger: fields.trigger.optional() });

const workflowView = z.object({
  id: z.string(), name: z.string(), instructions: z.string(), trigger: z.enum(TRIGGER_KINDS), source_project_id: z.string().nullable(), source_branch: z.string().nullable(),
  every_minutes: z.number().nullable(), next_run_at: z.string().nullable(), publish: z.enum(PUBLISH_MODES), enabled: z.boolean(),
  max_steps: z.number(), max_credits: z.number(), created_by: z.string(), created_at: z.string(), updated_at: z.string(),
});
const runView = z.object({
  id: z.string(), workflow_id: z.string(), trigger: z.string(), status: z.enum(RUN_STATUSES), outcome: z.string().nullable(), branch: z.string(),
  credits: z.number(), tokens: z.number(), steps: z.number(), commit: z.string().nullable(), published_commit: z.string().nullable(),
  preview_url: z.string().nullable(), created_at: z.string(), finished_at: z.string().nullable(),
});

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
const viewOf = (w: Workflow): z.infer<typeof workflowView> => ({
  id: w._id, name: w.name, instructions: w.instructions, trigger: w.trigger, source_project_id: w.source_project_id ?? null, source_branch: w.source_branch ?? null,
  every_minutes: w.every_minutes ?? null, next_run_at: iso(w.next_run_at), publish: w.publish, enabled: w.enabled,
  max_steps: w.max_steps, max_credits: w.max_credits, created_by: w.created_by, created_at: iso(w.created_at)!, updated_at: iso(w.updated_at)!,
});
const runOf = (r: AgentRun): z.infer<typeof runView> => ({
  id: r._id, workflow_id: r.workflow_id ?? '', trigger: r.trigger?.kind ?? 'call', status: r.status, outcome: r.outcome ?? null, branch: r.branch,
  credits: r.credits ?? 0, tokens: r.tokens ?? 0, steps: r.steps?.length ?? 0, commit: r.commit ?? null, published_commit: r.published_commit ?? null,
  preview_url: r.preview_url ?? null, created_at: iso(r.created_at)!, finished_at: iso(r.finished_at),
});

/** The trigger's settings, checked together: a push needs another project of the organization, a schedule its interval. */
async function checkTrigger(deps: Deps, session: DashboardSession, projectId: string, w: Pick<Workflow, 'trigger' | 'source_project_id' | 'every_minutes'>): Promise<void> {
  if (w.trigger === 'push') {
    if (!w.source_project_id) throw invalid('source_project_id', 'is required for a push trigger: the project whose repository holds the code');
    if (w.source_project_id === projectId) throw invalid('source_project_id', 'must be another project: a workflow cannot follow pushes to the docs it writes');
    const source = await deps.m.Project.findOne({ _id: w.source_project_id, org_id: session.orgId }).lean();
    if (!source) throw invalid('source_project_id', 'must name another project of this organization');
  }
  if (w.trigger === 'schedule' && !w.every_minutes) throw invalid('every_minutes', 'is required for a schedule trigger');
}

async function ownWorkflow(deps: Deps, session: DashboardSession, projectId: string, workflowId: string): Promise<Workflow> {
  const project = await findOwnProject(deps.m, session.orgId, projectId);
  const w = await workflowModel(deps.m).findOne({ _id: workflowId, project_id: project._id }).lean<Workflow>();
  if (!w) throw notFound('workflow');
  return w;
}

const gate = (deps: Deps, session: DashboardSession) => requireFeature(deps.m, session.orgId, 'self_updating_workflows', deps.now(), deps.env.UPGRADE_URL);

export function registerWorkflowRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/workflows', operationId: 'dashboardCreateWorkflow', permission: 'content.publish',
    summary: 'Create a self-updating workflow', params, body: createBody,
    description: 'Enterprise plan (`self_updating_workflows`). A trigger (`push` to another project\'s managed repository, `schedule` every N minutes, or `call` only) plus instructions; each run is a writing agent run on `agent/<run id>`.',
    responses: { 201: { description: 'Created', schema: workflowView } },
    async handler({ params: p, body, session, deps, ctx }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      await gate(deps, session);
      const w = { trigger: body.trigger, source_project_id: body.trigger === 'push' ? body.source_project_id ?? null : null, every_minutes: body.trigger === 'schedule' ? body.every_minutes ?? null : null };
      await checkTrigger(deps, session, project._id, w);
      const now = deps.now();
      const created = await workflowModel(deps.m).create({
        org_id: session.orgId, project_id: project._id, name: body.name, instructions: body.instructions, ...w,
        source_branch: body.trigger === 'push' ? body.source_branch ?? 'main' : null,
        next_run_at: w.every_minutes ? new Date(now.getTime() + w.every_minutes * 60_000) : null,
        publish: body.publish ?? 'review', enabled: body.enabled ?? true,
        max_steps: body.max_steps ?? DEFAULT_MAX_STEPS, max_credits: body.max_credits ?? DEFAULT_MAX_CREDITS,
        created_by: session.userId, created_at: now, updated_at: now,
      });
      const view = viewOf(created.toObject() as Workflow);
      await recordAudit(deps, { orgId: session.orgId, actorUserId: session.userId, action: 'workflow.created', target: { type: 'project', id: project._id, name: project.slug }, details: { workflow_id: view.id, trigger: view.trigger, publish: view.publish }, ip: ctx.ip });
      return { status: 201, body: view };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/workflows', operationId: 'dashboardListWorkflows', permission: 'projects.read',
    summary: 'The project\'s workflows', params,
    responses: { 200: { description: 'Workflows', schema: z.object({ data: z.array(workflowView) }) } },
    async handler({ params: p, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      await gate(deps, session);
      const rows = await workflowModel(deps.m).find({ project_id: project._id }).sort({ created_at: 1 }).lean<Workflow[]>();
      return { body: { data: rows.map(viewOf) } };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'patch', path: '/projects/:id/workflows/:workflowId', operationId: 'dashboardUpdateWorkflow', permission: 'content.publish',
    summary: 'Change a workflow (only the fields given)', params: wfParams, body: updateBody,
    responses: { 200: { description: 'Updated', schema: workflowView } },
    async handler({ params: p, body, session, deps, ctx }) {
      const w = await ownWorkflow(deps, session, p.id, p.workflowId);
      await gate(deps, session);
      const next = { ...w, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) } as Workflow;
      await checkTrigger(deps, session, w.project_id, next);
      const now = deps.now();
      const set: Record<string, unknown> = { ...body, updated_at: now };
      if (next.trigger !== 'push') Object.assign(set, { source_project_id: null, source_branch: null });
      if (next.trigger !== 'schedule') Object.assign(set, { every_minutes: null, next_run_at: null });
      else if (body.every_minutes !== undefined || body.trigger === 'schedule') set.next_run_at = new Date(now.getTime() + next.every_minutes! * 60_000);
      const updated = await workflowModel(deps.m).findOneAndUpdate({ _id: w._id }, { $set: set }, { returnDocument: 'after' }).lean<Workflow>();
      if (!updated) throw notFound('workflow');
      await recordAudit(deps, { orgId: session.orgId, actorUserId: session.userId, action: 'workflow.updated', target: { type: 'project', id: w.project_id }, details: { workflow_id: w._id, fields: Object.keys(body) }, ip: ctx.ip });
      return { body: viewOf(updated) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/workflows/:workflowId', operationId: 'dashboardDeleteWorkflow', permission: 'content.publish',
    summary: 'Delete a workflow (its past runs and their branches stay)', params: wfParams,
    responses: { 204: { description: 'Deleted' } },
    async handler({ params: p, session, deps, ctx }) {
      const w = await ownWorkflow(deps, session, p.id, p.workflowId);
      await gate(deps, session);
      await workflowModel(deps.m).deleteOne({ _id: w._id });
      await recordAudit(deps, { orgId: session.orgId, actorUserId: session.userId, action: 'workflow.deleted', target: { type: 'project', id: w.project_id }, details: { workflow_id: w._id, name: w.name }, ip: ctx.ip });
      return { status: 204 };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/workflows/:workflowId/runs', operationId: 'dashboardStartWorkflowRun', permission: 'content.publish',
    summary: 'Start a run of a workflow now', params: wfParams,
    description: 'Any trigger kind may be started by a call; the run gets the instructions without a change. 409 `ai_model_not_configured` without a model; 409 `workflow_disabled` for a disabled workflow.',
    responses: { 202: { description: 'Started', schema: runView } },
    async handler({ params: p, session, deps, ctx }) {
      const w = await ownWorkflow(deps, session, p.id, p.workflowId);
      await gate(deps, session);
      if (!w.enabled) throw new AppError(409, 'workflow_disabled', 'This workflow is turned off; turn it on to run it');
      const run = await startWorkflowRun(deps, w, { kind: 'call', by_user_id: session.userId }, ctx.ip);
      return { status: 202, body: runOf(run) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/workflows/runs', operationId: 'dashboardListWorkflowRuns', permission: 'projects.read',
    summary: 'Runs of the project\'s workflows, newest first (at most 100), with credits and outcomes', params,
    responses: { 200: { description: 'Runs', schema: z.object({ data: z.array(runView) }) } },
    async handler({ params: p, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      await gate(deps, session);
      const rows = await agentRunModel(deps.m).find({ project_id: project._id, workflow_id: { $ne: null } }, { writes: 0, diff: 0, task: 0 }).sort({ created_at: -1 }).limit(100).lean<AgentRun[]>();
      return { body: { data: rows.map(runOf) } };
    },
  }));
}

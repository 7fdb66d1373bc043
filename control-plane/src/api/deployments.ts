/** Deployment endpoints: list, get (for polling), trigger. */
import { recordAudit } from '../audit/record.ts';
import { queueRedeploy } from '../deploy/redeploy.ts';
import { notFound } from '../errors.ts';
import { defineRoute } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { deploymentParams, deploymentSchema, listDeploymentsQuery, projectParams } from './schemas.ts';
import { deploymentJson } from './serialize.ts';
import { z } from 'zod';

const TAGS = ['Deployments'];

export const deploymentRoutes = [
  defineRoute({
    method: 'post', path: '/projects/:id/deployments', operationId: 'triggerDeployment', summary: 'Trigger a deployment', tags: TAGS,
    description: 'Queues a fresh sync of the connected repository\'s branch head, without a new commit. '
      + 'Answers 202 with the queued deployment; when a sync of the project is already queued, the trigger joins it and that deployment is returned.',
    auth: 'deployments:trigger', params: projectParams,
    responses: { 202: { description: 'The queued deployment', schema: deploymentSchema } },
    async handler({ ctx, params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      // The dashboard's redeploy runs this handler for a signed-in user (dashboard/v1-handlers.ts):
      // its deployments read "manual", an API key's "api".
      const userId = (ctx.state.session as { userId?: string } | undefined)?.userId ?? null;
      const d = await queueRedeploy(deps, project._id, userId ? 'manual' : 'api');
      await recordAudit(deps, {
        orgId: auth.orgId, actorUserId: userId, ...(userId ? {} : { actorLabel: `api key ${auth.id}` }), action: 'deployment.triggered',
        target: { type: 'deployment', id: d._id, name: project.slug }, ip: ctx.ip,
      });
      return { status: 202, body: deploymentJson(d), headers: { Location: `${deps.env.publicApiUrl}/projects/${project._id}/deployments/${d._id}` } };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:id/deployments', operationId: 'listDeployments', summary: 'List deployments', tags: TAGS,
    description: 'Newest first.', auth: 'deployments:read', params: projectParams, query: listDeploymentsQuery,
    responses: { 200: { description: 'Deployments of the project', schema: z.object({ data: z.array(deploymentSchema) }) } },
    async handler({ params, query, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const rows = await deps.m.Deployment.find({ project_id: project._id, ...(query.status ? { status: query.status } : {}) })
        .sort({ started_at: -1, _id: -1 }).limit(query.limit).lean();
      return { body: { data: rows.map(deploymentJson) } };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:id/deployments/:deploymentId', operationId: 'getDeployment', summary: 'Get a deployment', tags: TAGS,
    description: 'Suited to polling: `finished_at` stays null until the deployment is `deployed` or `failed`. Needs `deployments:read`.',
    auth: 'deployments:read', params: deploymentParams,
    responses: { 200: { description: 'The deployment', schema: deploymentSchema } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      const d = await deps.m.Deployment.findOne({ _id: params.deploymentId, project_id: project._id }).lean();
      if (!d) throw notFound('deployment');
      return { body: deploymentJson(d) };
    },
  }),
];

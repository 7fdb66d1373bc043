/**
 * Public API route of the model settings (`/v1/ai/model`, any API key): whether each AI feature
 * has a model and where it comes from; never the base URL or the key. The dashboard's routes are
 * in `dashboard/ai-settings-routes.ts`.
 */
import { defineRoute } from '../http/route.ts';
import { modelStatusView, statusView } from './model-settings.ts';

export const aiModelApiRoutes = [
  defineRoute({
    method: 'get', path: '/ai/model', operationId: 'getAiModelStatus', summary: 'Whether the AI features have a model', tags: ['AI'],
    description: 'Any valid key (no scope needed). For each AI feature: whether a model answers it and whether it is the organization\'s own (set in the dashboard by owners and admins) or the platform\'s default. The base URL and the key are never answered; without a model the assistant answers with the best matching pages.',
    auth: 'key',
    responses: { 200: { description: 'Status', schema: modelStatusView } },
    async handler({ auth, deps }) {
      return { body: await statusView(deps.m, deps.env, auth.orgId) };
    },
  }),
];

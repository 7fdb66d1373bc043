/**
 * Dashboard routes of the organization's model settings (`/dashboard/api/ai-settings`, sessions):
 * owners and admins (`settings.manage`) read, save and remove the model and test the connection.
 */
import { z } from 'zod';
import type { DashboardRouter } from './dashboard-route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute } from './dashboard-route.ts';
import { notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { testConnection } from '../ai-settings/connection-test.ts';
import { organizationModel } from '../ai-settings/model-resolver.ts';
import { deleteSettings, modelSettingsBody, modelSettingsView, readSettings, saveSettings, settingsView } from '../ai-settings/model-settings.ts';

const allowHosts = (deps: Deps) => deps.services.fetchAllowHosts ?? [];

const testResult = z.object({
  ok: z.boolean(),
  message: z.string().describe('What happened, in people\'s words: success, or why not and what to check'),
  reply: z.string().nullable().describe('The model\'s first words (success only)'),
  first_token_ms: z.number().int().nullable(),
}).meta({ id: 'AiModelConnectionTest' });

export function registerAiSettingsRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/ai-settings', operationId: 'dashboardAiSettings', permission: 'settings.manage', summary: 'The organization\'s model settings',
    description: 'The organization\'s own model (the API key is never answered, only whether one is set and its last four characters), the platform\'s default, and where each AI feature\'s model comes from.',
    responses: { 200: { description: 'Settings', schema: modelSettingsView } },
    async handler({ session, deps }) {
      return { body: await settingsView(deps.m, deps.env, session.orgId) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'put', path: '/ai-settings', operationId: 'dashboardSaveAiSettings', permission: 'settings.manage', summary: 'Save the organization\'s model',
    description: 'An OpenAI-compatible chat endpoint. The base URL must resolve to public addresses (400 naming `base_url`) unless the operator allows its host:port. Omit `api_key` to keep the stored one; null removes it.',
    body: modelSettingsBody,
    responses: { 200: { description: 'Saved; the settings as now stored', schema: modelSettingsView } },
    async handler({ ctx, body, session, deps }) {
      await saveSettings(deps.m, deps.env, session.orgId, body, deps.now(), allowHosts(deps));
      // The base URL and model are recorded; the key only as whether it changed.
      await auditAction(ctx, deps, session, 'ai_model.set', { type: 'ai_model', id: session.orgId, name: body.model }, { base_url: new URL(body.base_url).origin, key: body.api_key === undefined ? 'kept' : body.api_key === null ? 'removed' : 'replaced' });
      return { body: await settingsView(deps.m, deps.env, session.orgId) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'delete', path: '/ai-settings', operationId: 'dashboardDeleteAiSettings', permission: 'settings.manage', summary: 'Remove the organization\'s model',
    description: 'The key is deleted with the settings; every feature uses the platform\'s default model again, if any. 404 when none is saved.',
    responses: { 204: { description: 'Removed' } },
    async handler({ ctx, session, deps }) {
      await deleteSettings(deps.m, session.orgId);
      await auditAction(ctx, deps, session, 'ai_model.removed', { type: 'ai_model', id: session.orgId });
      return { status: 204 };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'post', path: '/ai-settings/test', operationId: 'dashboardTestAiSettings', permission: 'settings.manage', summary: 'Test the saved model',
    description: 'Sends one tiny request ("Reply with the word OK", 5 tokens at most, 15 s) to the saved model and says what happened. A failure is a 200 with `ok: false` and the reason; 404 when no model is saved.',
    responses: { 200: { description: 'The outcome', schema: testResult } },
    async handler({ session, deps }) {
      const row = await readSettings(deps.m, session.orgId);
      if (!row) throw notFound('Model settings');
      return { body: await testConnection(await organizationModel(deps.m, deps.env, row, allowHosts(deps))) };
    },
  }));
}

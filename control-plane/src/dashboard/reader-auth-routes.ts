/**
 * Reader authentication settings under `/dashboard/api/projects/{id}/reader-auth`
 * (sites/reader-auth/reader-settings.ts): GET for every member; PUT and DELETE for owners and
 * admins, gated by `auth_gated_pages` (402 `plan_required` with the upgrade link; after a
 * downgrade the gate keeps working and the settings are read-only). Another organization's
 * project answers 404. Secrets are write-only. Turning sign-in on or off changes what the build
 * publishes, so it queues a redeploy of the production site; until that build is live the site
 * server serves no page of a gated site (reader-auth/live-build.ts).
 */
import { z } from 'zod';
import { queueRedeploy } from '../deploy/redeploy.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from '../api/schemas.ts';
import type { Deps } from '../http/route.ts';
import { readerAuthBody, readerAuthView, removeReaderAuth, setReaderAuth } from '../sites/reader-auth/reader-settings.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

const text = z.string().nullable();
const view = z.object({
  enabled: z.boolean().describe('Whether readers must sign in (all pages, or all but public ones)'),
  mode: z.enum(['oidc', 'jwt']).nullable().describe('oidc: the customer\'s OpenID provider; jwt: a token the customer\'s app signs'),
  scope: z.enum(['full', 'partial']).nullable().describe('full: every page needs sign-in; partial: pages marked public do not'),
  issuer: text, client_id: text, client_secret_set: z.boolean(), scopes: text, groups_claim: text.describe('The claim that carries the reader\'s groups'),
  algorithm: text, verification_key_set: z.boolean(), jwks_url: text, login_url: text.describe('The customer\'s sign-in page (jwt)'),
  audience: text, token_issuer: text,
  callback_path: z.string().describe('The redirect URI path to register at the OpenID provider, on the site\'s host'),
  handoff_path: z.string().describe('Where the customer\'s app sends a reader with ?token=<JWT>&next=<path>'),
  set_at: text, editable: z.boolean().describe('False when the plan lacks auth-gated pages (settings read-only)'),
});

/** Whether reader sign-in is on for the project now. */
async function signInOn(deps: Deps, projectId: string): Promise<boolean> {
  return Boolean((await deps.m.Project.findById(projectId, { reader_auth: 1 }).lean())?.reader_auth?.mode);
}

/** Rebuilds the production site when one is live (a project never deployed has nothing to republish). */
async function republish(deps: Deps, projectId: string): Promise<void> {
  if (await deps.m.Deployment.exists({ project_id: projectId, status: 'deployed', preview_label: null })) await queueRedeploy(deps, projectId, 'manual');
}

const ctxOf = (deps: Deps) => ({ m: deps.m, now: deps.now(), upgradeUrl: deps.env.UPGRADE_URL });

export function registerReaderAuthRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/reader-auth', operationId: 'dashboardGetReaderAuth', permission: 'projects.read', summary: 'How the site\'s readers sign in',
    params: projectParams, responses: { 200: { description: 'The settings (never a secret)', schema: view } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const full = await deps.m.Project.findById(project._id, { reader_auth: 1 }).lean();
      return { body: await readerAuthView(ctxOf(deps), session.orgId, full ?? {}) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'put', path: '/projects/:id/reader-auth', operationId: 'dashboardSetReaderAuth', permission: 'settings.manage', summary: 'Make readers sign in (OpenID provider or JWT handoff)',
    description: 'Pro plan. Secrets are stored sealed and never returned; leave them out to keep the stored ones. Every signed-in reader must sign in again. '
      + 'Turning sign-in on queues a redeploy that publishes the site per audience: public pages at the site, the others only to signed-in readers of their groups; '
      + 'until it is live, readers without a session are sent to the sign-in page and signed-in readers are asked to retry (503). Changing the mode, provider or scope of sign-in that is on takes effect at once.',
    params: projectParams, body: readerAuthBody,
    responses: { 200: { description: 'Readers sign in', schema: view } },
    async handler({ ctx, params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const wasOn = await signInOn(deps, project._id);
      const out = await setReaderAuth(ctxOf(deps), session.orgId, project._id, body);
      if (!wasOn) await republish(deps, project._id);
      await auditAction(ctx, deps, session, 'reader_auth.set', { type: 'project', id: project._id, name: project.slug });
      return { body: out };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/reader-auth', operationId: 'dashboardRemoveReaderAuth', permission: 'settings.manage', summary: 'Stop asking readers to sign in',
    description: 'Queues a redeploy that publishes every page without sign-in again; until it is live, pages that needed sign-in answer as missing.',
    params: projectParams, responses: { 204: { description: 'Off' } },
    async handler({ ctx, params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const wasOn = await signInOn(deps, project._id);
      await removeReaderAuth(ctxOf(deps), session.orgId, project._id);
      if (wasOn) await republish(deps, project._id);
      await auditAction(ctx, deps, session, 'reader_auth.removed', { type: 'project', id: project._id, name: project.slug });
      return { status: 204 };
    },
  }));
}

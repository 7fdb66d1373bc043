/**
 * Site password settings under `/dashboard/api/projects/{id}/password` (sites/password-settings.ts):
 * GET for every member; PUT and DELETE for owners and admins, gated by `password_protection`
 * (402 `plan_required` with the upgrade link, also after a downgrade: the password keeps working,
 * its settings are read-only). Another organization's project answers 404.
 */
import { z } from 'zod';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from '../api/schemas.ts';
import type { Deps } from '../http/route.ts';
import { removeSitePassword, setSitePassword, sitePasswordBody, sitePasswordView } from '../sites/password-settings.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

const view = z.object({
  enabled: z.boolean().describe('Whether visitors must enter a password'),
  set_at: z.string().nullable().describe('When the current password was set'),
  editable: z.boolean().describe('False when the plan lacks password_protection (settings read-only)'),
});

const ctxOf = (deps: Deps) => ({ m: deps.m, now: deps.now(), upgradeUrl: deps.env.UPGRADE_URL });

export function registerSitePasswordRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/password', operationId: 'dashboardGetSitePassword', permission: 'projects.read', summary: 'Whether the site is password protected',
    params: projectParams, responses: { 200: { description: 'The setting (never the password)', schema: view } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      return { body: await sitePasswordView(ctxOf(deps), session.orgId, project) };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'put', path: '/projects/:id/password', operationId: 'dashboardSetSitePassword', permission: 'settings.manage', summary: 'Set or replace the site password',
    description: 'Pro plan. Stored as a scrypt hash. Every visitor signed in with the previous password must sign in again.', params: projectParams, body: sitePasswordBody,
    responses: { 200: { description: 'Protected', schema: view } },
    async handler({ ctx, params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const out = await setSitePassword(ctxOf(deps), session.orgId, project._id, body.password);
      await auditAction(ctx, deps, session, 'site_password.set', { type: 'project', id: project._id, name: project.slug });
      return { body: out };
    },
  }));
  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/password', operationId: 'dashboardRemoveSitePassword', permission: 'settings.manage', summary: 'Make the site public again', params: projectParams, responses: { 204: { description: 'Public' } },
    async handler({ ctx, params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      await removeSitePassword(ctxOf(deps), session.orgId, project._id);
      await auditAction(ctx, deps, session, 'site_password.removed', { type: 'project', id: project._id, name: project.slug });
      return { status: 204 };
    },
  }));
}

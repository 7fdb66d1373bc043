/**
 * GitHub in the dashboard (Settings → GitHub): the organization's App installations, the
 * "Connect GitHub" install link, the setup callback that links an installation, and unlinking.
 *
 * The flow: `GET /github/install-link` (owner, admin) answers
 * `<GITHUB_BASE_URL>/apps/<slug>/installations/new?state=…` with a signed state bound to the
 * organization, the user and 30 minutes. After the install GitHub sends the user to the App's
 * callback URL (the dashboard's `/settings/github/setup`: with "request user authorization during
 * installation" on, it replaces the setup URL) with `installation_id`, `setup_action`, `code` and
 * `state`; that page posts them to `POST /github/installations`, which links the installation
 * only once GitHub, asked with the user's own token for `code`, lists it among the user's
 * installations (github/link-installation.ts).
 */
import { z } from 'zod';
import { forgetTokens } from '../github/installation-tokens.ts';
import { githubAppOf, requireGithubApp } from '../github/github-app.ts';
import { signInstallState, verifyInstallState } from '../github/install-state.ts';
import { installationJson, linkInstallation } from '../github/link-installation.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';


const installation = z.object({
  id: z.number().int().describe('GitHub\'s installation id'),
  account_login: z.string().describe('The GitHub user or organization the App is installed on'),
  account_id: z.number().int(),
  suspended: z.boolean().describe('Suspended on GitHub: its projects do not build'),
  created_at: z.string(),
}).meta({ id: 'GithubInstallation' });

const idRule = { error: 'must be a GitHub installation id (a positive whole number)' };
const installationId = z.coerce.number(idRule).int(idRule).min(1, idRule).max(Number.MAX_SAFE_INTEGER, idRule);

export function registerGithubRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/github/installations', operationId: 'dashboardListGithubInstallations', permission: 'projects.read', summary: 'The GitHub App installations connected to the organization',
    description: '`enabled` is false when the server has no GitHub App configured (no repository can be connected then).',
    responses: { 200: { description: 'Installations, oldest first', schema: z.object({ enabled: z.boolean(), app_url: z.string().nullable(), data: z.array(installation) }) } },
    async handler({ session, deps }) {
      const app = githubAppOf(deps.env);
      const rows = await deps.m.GithubInstallation.find({ org_id: session.orgId }).sort({ created_at: 1, _id: 1 }).lean();
      return { body: { enabled: Boolean(app), app_url: app ? `${app.webUrl}/apps/${app.slug}` : null, data: rows.map(installationJson) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/github/install-link', operationId: 'dashboardGithubInstallLink', permission: 'github.manage', summary: 'A "Connect GitHub" link: install the App on a GitHub account',
    description: 'The link carries a signed `state` for this user and organization, valid 30 minutes. 422 `github_not_configured` without a GitHub App.',
    responses: { 200: { description: 'Where to send the browser', schema: z.object({ url: z.string(), expires_at: z.string() }) }, 422: { description: 'github_not_configured' } },
    async handler({ session, deps }) {
      const app = requireGithubApp(deps.env);
      const { state, expiresAt } = await signInstallState(deps.m, session.orgId, session.userId, deps.now());
      return { body: { url: `${app.webUrl}/apps/${encodeURIComponent(app.slug)}/installations/new?state=${encodeURIComponent(state)}`, expires_at: expiresAt.toISOString() } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/github/installations', operationId: 'dashboardLinkGithubInstallation', permission: 'github.manage', summary: 'Connect an installation (the App\'s setup callback)',
    description: 'Takes what GitHub\'s setup redirect carried. 400 `invalid_state`: the state is missing, forged, expired or made for another user or organization; '
      + '403 `github_authorization_failed`: GitHub refused `code`; 403 `github_installation_not_accessible`: GitHub does not list the installation among the user\'s; '
      + '409 `installation_already_linked`: another organization has it. Linking one the organization already has answers it with 200.',
    body: z.strictObject({
      installation_id: installationId,
      code: z.string({ error: 'Required; expected the code GitHub added to the setup redirect (enable "Request user authorization (OAuth) during installation")' }).min(1).max(200),
      state: z.string({ error: 'Required; expected the state of the install link' }).min(1).max(1000),
      setup_action: z.string().max(50).optional().describe('install or update (informational)'),
    }),
    responses: {
      200: { description: 'Already connected to this organization', schema: installation },
      201: { description: 'Connected', schema: installation },
      400: { description: 'invalid_state' }, 403: { description: 'github_authorization_failed or github_installation_not_accessible' },
      409: { description: 'installation_already_linked' }, 422: { description: 'github_not_configured' }, 502: { description: 'github_unavailable' },
    },
    async handler({ ctx, body, session, deps }) {
      requireGithubApp(deps.env);
      await verifyInstallState(deps.m, body.state, session, deps.now());
      const { installation: linked, created } = await linkInstallation(deps, { orgId: session.orgId, userId: session.userId, installationId: body.installation_id, code: body.code });
      if (created) await auditAction(ctx, deps, session, 'github.linked', { type: 'github_installation', id: String(linked.id), name: linked.account_login });
      return { status: created ? 201 : 200, body: linked };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/github/installations/:installationId', operationId: 'dashboardUnlinkGithubInstallation', permission: 'github.manage', summary: 'Disconnect an installation',
    description: 'The organization\'s projects connected through it stop building (their deployments fail saying so) until it, or another installation '
      + 'covering their repository, is connected. The App stays installed on GitHub: uninstall it there to remove it.', params: z.object({ installationId }),
    responses: { 204: { description: 'Disconnected' } },
    async handler({ ctx, params, session, deps }) {
      const gone = await deps.m.GithubInstallation.findOneAndDelete({ _id: params.installationId, org_id: session.orgId }).lean();
      if (!gone) throw new AppError(404, 'not_found', 'installation not found');
      forgetTokens(deps.m, gone._id);
      await auditAction(ctx, deps, session, 'github.unlinked', { type: 'github_installation', id: String(gone._id), name: gone.account_login });
      return { status: 204 };
    },
  }));
}

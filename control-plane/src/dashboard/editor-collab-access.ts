/**
 * Who may open the collaboration socket, decided on the WebSocket upgrade with the same rules as
 * the dashboard's HTTP routes: the `folio_session` cookie (never an API key), the Origin and
 * Sec-Fetch-Site checks of request-guard.ts, the project in the session's organization (another
 * organization's project answers 404 like every project route), `content.edit`, and the
 * `web_editor` feature. Whether the member may write as well is the `multi_user_collaboration`
 * feature (editor/collab/collab-server.ts applies the free plan's one-writer rule). The socket's server
 * gets these rules from server.ts, so the editor does not import the dashboard.
 */
import type { IncomingMessage } from 'node:http';
import type { Deps } from '../http/route.ts';
import { AppError, unauthorized } from '../errors.ts';
import { dashboardOrigins } from './request-guard.ts';
import { SESSION_COOKIE, forbiddenPermission } from './session-auth.ts';
import { findSession } from './session-store.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { hasFeature, requireFeature } from '../entitlements/resolver.ts';
import { can } from '../roles/roles.ts';

/** The one path the socket answers at (a query string is allowed and ignored). */
export const COLLAB_PATH = /^\/dashboard\/api\/projects\/([^/?#]+)\/editor\/collab$/;

import type { CollabAccess, CollabAccessRules } from '../editor/collab/collab-server.ts';

/** The project id of a collaboration socket's URL, or undefined for any other path. */
export function collabProjectId(url: string | undefined): string | undefined {
  const pathOnly = (url ?? '').split('?')[0] ?? '';
  const match = COLLAB_PATH.exec(pathOnly);
  if (!match) return undefined;
  try { return decodeURIComponent(match[1]!); } catch { return undefined; }
}

function sessionToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

const quote = (value: string, max: number) => JSON.stringify(value.slice(0, max));

/** request-guard.ts's checks for a state change, applied to the handshake (it carries writes). */
function assertOwnOrigin(req: IncomingMessage, deps: Deps): void {
  const site = String(req.headers['sec-fetch-site'] ?? '');
  if (site && !['same-origin', 'none'].includes(site.toLowerCase())) {
    throw new AppError(403, 'csrf_failed', `Sec-Fetch-Site: Unexpected ${quote(site, 40)}; expected same-origin (the dashboard calls its API only from its own pages)`);
  }
  const origin = String(req.headers.origin ?? '');
  if (origin) {
    const allowed = dashboardOrigins(deps.env);
    if (!allowed.includes(origin.toLowerCase())) {
      throw new AppError(403, 'csrf_failed', `Origin: Unexpected ${quote(origin, 100)}; expected ${allowed.join(' or ')}`);
    }
  }
}

/**
 * The access of a session token to a project now, or an AppError (401, 403, 404, 402): used on
 * the upgrade and again while the socket stays open, so a removed member, a changed role or an
 * ended session is cut off.
 */
export async function checkAccess(deps: Deps, token: string | undefined, projectId: string): Promise<CollabAccess> {
  const session = token ? await findSession(deps.m, deps.env, token, deps.now()) : undefined;
  if (!token || !session) throw unauthorized('Not signed in; sign in to the dashboard first');
  await findOwnProject(deps.m, session.orgId, projectId);
  if (!can(session, 'content.edit')) throw forbiddenPermission(session, 'content.edit');
  await requireFeature(deps.m, session.orgId, 'web_editor', deps.now(), deps.env.UPGRADE_URL);
  const user = await deps.m.User.findById(session.userId, { name: 1, email: 1 }).lean();
  return {
    token, userId: session.userId, orgId: session.orgId, projectId,
    name: user?.name || user?.email || 'Someone', email: user?.email ?? '',
    collaboration: await hasFeature(deps.m, session.orgId, 'multi_user_collaboration', deps.now()),
  };
}

/** Every check of an upgrade to the collaboration path (see the module comment). */
export async function authorizeUpgrade(deps: Deps, req: IncomingMessage, projectId: string): Promise<CollabAccess> {
  assertOwnOrigin(req, deps);
  return checkAccess(deps, sessionToken(req), projectId);
}

/** The rules the collaboration server checks its sockets with. */
export const editorCollabAccess: CollabAccessRules = { projectIdOf: collabProjectId, authorizeUpgrade, checkAccess };

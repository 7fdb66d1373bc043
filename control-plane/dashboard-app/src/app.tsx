/**
 * The app shell: reads the session, routes signed-out visitors to the sign-in pages, and renders
 * the page for the current path inside the signed-in layout.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, onSessionExpired } from './api.ts';
import { match, navigate, usePath } from './router.ts';
import { fetchSession, SessionContext, type Session } from './session.ts';
import { Layout, toSignIn } from './ui/layout.tsx';
import { ErrorNotice, Loading } from './ui/notice.tsx';
import { AcceptInvitePage } from './pages/accept-invite.tsx';
import { AiModelPage } from './pages/ai-model.tsx';
import { AnalyticsPage } from './pages/analytics.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { ClaimPage } from './pages/claim.tsx';
import { DeploymentDetailPage } from './pages/deployment-detail.tsx';
import { DeploymentsPage } from './pages/deployments.tsx';
import { DomainsPage } from './pages/domains.tsx';
import { EditorPage } from './pages/editor.tsx';
import { AgentPage } from './pages/agent.tsx';
import { WorkflowsPage } from './pages/workflows.tsx';
import { GithubPage, GithubSetupPage } from './pages/github.tsx';
import { MembersPage } from './pages/members.tsx';
import { NewProjectPage } from './pages/project-new.tsx';
import { ProjectSettingsPage } from './pages/project-settings.tsx';
import { ProjectsPage } from './pages/projects.tsx';
import { PlanPage } from './pages/plan.tsx';
import { RolesPage } from './pages/roles.tsx';
import { nextPath, SignInPage } from './pages/sign-in.tsx';
import { SsoPage } from './pages/sso.tsx';

type Route = [pattern: string, title: string, render: (p: Record<string, string>) => ComponentChildren];

const ROUTES: Route[] = [
  ['/projects', 'Projects', () => <ProjectsPage />],
  ['/projects/new', 'New project', () => <NewProjectPage />],
  ['/projects/:id', 'Project', (p) => <Redirect to={`/projects/${encodeURIComponent(p.id)}/deployments`} />],
  ['/projects/:id/settings', 'Project settings', (p) => <ProjectSettingsPage id={p.id} />],
  ['/projects/:id/deployments', 'Deployments', (p) => <DeploymentsPage id={p.id} />],
  ['/projects/:id/deployments/:deploymentId', 'Deployment', (p) => <DeploymentDetailPage id={p.id} deploymentId={p.deploymentId} />],
  ['/projects/:id/domains', 'Custom domains', (p) => <DomainsPage id={p.id} />],
  ['/projects/:id/analytics', 'Analytics', (p) => <AnalyticsPage id={p.id} />],
  ['/projects/:id/editor', 'Editor', (p) => <EditorPage id={p.id} />],
  ['/projects/:id/editor/*path', 'Editor', (p) => <EditorPage id={p.id} path={p.path} />],
  ['/projects/:id/agent', 'Writing agent', (p) => <AgentPage id={p.id} />],
  ['/projects/:id/workflows', 'Workflows', (p) => <WorkflowsPage id={p.id} />],
  ['/settings/api-keys', 'API keys', () => <ApiKeysPage />],
  ['/settings/members', 'Members', () => <MembersPage />],
  ['/settings/roles', 'Roles', () => <RolesPage />],
  ['/settings/plan', 'Plan and usage', () => <PlanPage />],
  ['/settings/github', 'GitHub', () => <GithubPage />],
  ['/settings/github/setup', 'Connect GitHub', () => <GithubSetupPage />],
  ['/settings/sso', 'Single sign-on', () => <SsoPage />],
  ['/settings/ai-model', 'AI model', () => <AiModelPage />],
];

/** Pages reachable signed out. */
const PUBLIC = ['/sign-in', '/claim', '/accept-invite'];

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return null;
}

export function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null>();
  const [error, setError] = useState<ApiError>();
  const refresh = useCallback(async () => {
    try {
      setSession(await fetchSession());
      setError(undefined);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setSession(null);
      else setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    }
  }, []);
  useEffect(() => { void refresh(); }, [refresh]);
  useEffect(() => onSessionExpired(() => setSession(null)), []);
  const signedIn = async () => {
    // Read before the refresh: the new session re-renders the sign-in page, which moves on by itself.
    const to = nextPath();
    await refresh();
    navigate(to, true);
  };

  const isPublic = PUBLIC.includes(path);
  const route = ROUTES.map(([pattern, title, render]) => ({ params: match(pattern, path), title, render })).find((r) => r.params);
  useEffect(() => {
    document.title = `${isPublic ? 'Folio' : route?.title ?? 'Not found'} · Folio dashboard`;
    // Move focus to the new page's content so keyboard and screen reader users start there.
    if (session) document.getElementById('main')?.focus({ preventScroll: true });
  }, [path, session === undefined]);
  useEffect(() => {
    if (session === null && !isPublic) toSignIn();
    // The address bar, not `path`: a render that lags behind a navigation must not send the user on again.
    if (session && (location.pathname === '/' || location.pathname === '/sign-in')) navigate(location.pathname === '/' ? '/projects' : nextPath(), true);
  }, [session, path]);

  if (error) return <main id="main" class="auth"><div class="card"><ErrorNotice error={error} /><button type="button" onClick={refresh}>Try again</button></div></main>;
  if (path === '/claim') return <ClaimPage onSignedIn={signedIn} />;
  if (path === '/accept-invite') return <AcceptInvitePage session={session} onSignedIn={signedIn} />;
  if (session === undefined) return <main id="main" class="auth"><Loading /></main>;
  if (session === null) return path === '/sign-in' ? <SignInPage onSignedIn={signedIn} /> : null;
  return (
    <SessionContext.Provider value={{ session, refresh }}>
      <Layout path={path}>
        {route ? route.render(route.params!) : path === '/' || path === '/sign-in' ? null : <><h1>Page not found</h1><p><a href="/projects">Go to your projects</a></p></>}
      </Layout>
    </SessionContext.Provider>
  );
}

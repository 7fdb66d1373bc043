/** The signed-in frame: skip link, header with the organization and navigation, sign-out. */
import type { ComponentChildren } from 'preact';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { can, useSession, type Permission } from '../session.ts';

const NAV = [
  ['/projects', 'Projects'],
  ['/settings/api-keys', 'API keys'],
  ['/settings/members', 'Members'],
  ['/settings/roles', 'Roles'],
  ['/settings/plan', 'Plan and usage'],
  ['/settings/github', 'GitHub'],
  ['/settings/sso', 'SSO'],
  ['/settings/ai-model', 'AI model'],
] as const;

/** Pages that need a permission, left out of the navigation of members without it. */
const NEEDS: Record<string, Permission> = { '/settings/sso': 'sso.manage', '/settings/ai-model': 'settings.manage' };

export function Layout({ path, children }: { path: string; children: ComponentChildren }) {
  const { session } = useSession();
  const signOut = async (everywhere: boolean) => {
    await api('POST', everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out').catch(() => undefined);
    location.assign('/sign-in');
  };
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="/projects">Folio</a>
        <span class="org" title={session.organization.handle}>{session.organization.name} · {session.organization.plan}</span>
        <nav aria-label="Main">
          <ul>
            {NAV.filter(([href]) => !NEEDS[href] || can(session, NEEDS[href])).map(([href, label]) => (
              <li key={href}><a href={href} aria-current={path.startsWith(href) ? 'page' : undefined}>{label}</a></li>
            ))}
          </ul>
        </nav>
        <details class="account">
          <summary>{session.user.name || session.user.email}</summary>
          <div class="menu">
            <p class="muted">{session.user.email} ({session.role})</p>
            <button type="button" class="secondary" onClick={() => signOut(false)}>Sign out</button>
            <button type="button" class="secondary" onClick={() => signOut(true)}>Sign out everywhere</button>
          </div>
        </details>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
    </>
  );
}

/** Tabs of one project's pages. */
export function ProjectTabs({ id, name, current }: { id: string; name: string; current: 'settings' | 'deployments' | 'domains' | 'analytics' | 'editor' | 'agent' | 'workflows' }) {
  const tabs = [['editor', 'Editor'], ['agent', 'Writing agent'], ['workflows', 'Workflows'], ['deployments', 'Deployments'], ['domains', 'Custom domains'], ['analytics', 'Analytics'], ['settings', 'Settings']] as const;
  return (
    <>
      <p class="crumbs"><a href="/projects">Projects</a> / <span>{name}</span></p>
      <nav class="tabs" aria-label="Project">
        {tabs.map(([key, label]) => (
          <a key={key} href={`/projects/${encodeURIComponent(id)}/${key}`} aria-current={current === key ? 'page' : undefined}>{label}</a>
        ))}
      </nav>
    </>
  );
}

/** Sends the browser to the sign-in page, coming back to `from` afterwards. */
export function toSignIn(from = location.pathname + location.search): void {
  navigate(`/sign-in${from && from !== '/' && !from.startsWith('/sign-in') ? `?next=${encodeURIComponent(from)}` : ''}`, true);
}

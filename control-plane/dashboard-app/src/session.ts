/** The signed-in session (`GET /session`), shared by every page through a context. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api, setCsrfToken } from './api.ts';

/** A built-in role (`owner`, `admin`, `editor`, `viewer`), the `member` alias of editor, or `custom:<id>`. */
export type Role = string;

/** What a role may do (the server's list: control-plane/src/roles/roles.ts). */
export type Permission =
  | 'projects.read' | 'projects.write' | 'deployments.trigger' | 'domains.manage' | 'keys.manage' | 'members.read' | 'members.invite'
  | 'members.manage' | 'roles.manage' | 'plan.read' | 'plan.manage' | 'analytics.read' | 'settings.manage' | 'content.edit'
  | 'content.publish' | 'audit.read' | 'github.manage' | 'sso.manage';

export interface Session {
  user: { id: string; email: string; name: string };
  organization: { id: string; name: string; handle: string; plan: string };
  role: Role;
  /** What this member may do now; the server refuses the rest, so the app hides it. */
  permissions: Permission[];
  csrf_token: string;
}

/**
 * Reads the session, or null when signed out. It asks `GET /session/probe`, which answers a
 * signed-out browser with 200 `{ signed_in: false }`: a 401 from `GET /session` would be logged
 * by the browser as a failed request on every signed-out visit.
 */
export async function fetchSession(): Promise<Session | null> {
  const probe = await api<{ signed_in: boolean; session?: Session }>('GET', '/session/probe');
  if (!probe.signed_in || !probe.session) return null;
  setCsrfToken(probe.session.csrf_token);
  return probe.session;
}

export interface SessionState {
  session: Session;
  /** Re-reads the session (after sign-in, role change). */
  refresh(): Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

/** The current session; only pages behind sign-in call it. */
export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

/** Whether the session holds `permission` (the same answer the server gives). */
export function can(session: Session, permission: Permission): boolean {
  return session.permissions.includes(permission);
}

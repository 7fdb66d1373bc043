/** The signed-in session (`GET /session`), shared by every page through a context. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api, setCsrfToken } from './api.ts';

export type Role = 'owner' | 'admin' | 'member';

export interface Session {
  user: { id: string; email: string; name: string };
  organization: { id: string; name: string; handle: string; plan: string };
  role: Role;
  csrf_token: string;
}

/** Reads the session; rejects with a 401 `ApiError` when signed out. */
export async function fetchSession(): Promise<Session> {
  const s = await api<Session>('GET', '/session');
  setCsrfToken(s.csrf_token);
  return s;
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

/** Owners and admins manage keys, members and project settings; members read. */
export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

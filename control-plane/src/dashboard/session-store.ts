/**
 * Dashboard sessions in the database. The cookie carries a random token; the database holds
 * only its SHA-256. The CSRF token is derived from the session token (a different hash), so it
 * is stored nowhere and a database dump yields neither.
 */
import { createHash } from 'node:crypto';
import type { Env } from '../env.ts';
import type { Models } from '../db/models/index.ts';
import type { Role } from '../db/models/membership.ts';
import { resolveActor } from '../roles/resolve.ts';
import type { Permission } from '../roles/roles.ts';
import { newToken, tokenHash } from './tokens.ts';

const HOUR_MS = 3_600_000;
/** Sliding expiry is written at most this often per session, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

/** What `requireSession` puts in `ctx.state.session`. */
export interface DashboardSession {
  sessionId: string;
  userId: string;
  orgId: string;
  role: Role;
  /** What the member may do now: their role's permissions plus their SCIM groups' (roles/resolve.ts). */
  permissions: Permission[];
  /** How messages name the role: `a member`, `the custom role "Writers"`. */
  roleLabel: string;
  /** The header value state-changing requests must send as `X-CSRF-Token`. */
  csrfToken: string;
}

/** The CSRF token of a session token. */
export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`).digest('base64url');
}

/** Starts a session; returns the token for the cookie (never stored). */
export async function createSession(m: Models, env: Env, userId: string, orgId: string, now: Date): Promise<{ token: string; sessionId: string }> {
  const token = newToken();
  const sessionId = tokenHash(token);
  const max = new Date(now.getTime() + env.SESSION_MAX_DAYS * 24 * HOUR_MS);
  await m.Session.create({
    _id: sessionId, user_id: userId, org_id: orgId, created_at: now, last_seen_at: now,
    expires_at: slidingExpiry(env, now, max), max_expires_at: max,
  });
  return { token, sessionId };
}

function slidingExpiry(env: Env, now: Date, max: Date): Date {
  return new Date(Math.min(now.getTime() + env.SESSION_IDLE_HOURS * HOUR_MS, max.getTime()));
}

/**
 * The live session of a token with the user's current role in its organization, or undefined
 * (unknown, expired, the membership was removed or suspended). Extends the sliding expiry.
 * Permissions are resolved here, on every request, so a role change applies at once.
 */
export async function findSession(m: Models, env: Env, token: string, now: Date): Promise<DashboardSession | undefined> {
  const sessionId = tokenHash(token);
  const s = await m.Session.findById(sessionId).lean();
  // The TTL sweeper runs now and then; expiry is decided here, to the millisecond.
  if (!s || s.expires_at.getTime() <= now.getTime()) return undefined;
  const membership = await m.Membership.findOne({ org_id: s.org_id, user_id: s.user_id }).lean();
  if (!membership || membership.active === false) return undefined;
  if (now.getTime() - s.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    await m.Session.updateOne({ _id: sessionId }, { $set: { last_seen_at: now, expires_at: slidingExpiry(env, now, s.max_expires_at) } });
  }
  const actor = await resolveActor(m, s.org_id, s.user_id, membership.role);
  return { sessionId, userId: s.user_id, orgId: s.org_id, role: membership.role as Role, permissions: actor.permissions, roleLabel: actor.roleLabel, csrfToken: csrfTokenFor(token) };
}

/** Ends one session. */
export async function deleteSession(m: Models, sessionId: string): Promise<void> {
  await m.Session.deleteOne({ _id: sessionId });
}

/** Ends every session of a user (sign-out everywhere, a password change, removal). */
export async function deleteUserSessions(m: Models, userId: string, orgId?: string): Promise<void> {
  await m.Session.deleteMany(orgId ? { user_id: userId, org_id: orgId } : { user_id: userId });
}

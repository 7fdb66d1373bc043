/**
 * Test helpers for the dashboard-internal API: users made straight in the database (their
 * passwords hashed the way sign-up does), sign-in over HTTP, and a request function that sends
 * the session cookie and the CSRF token like the dashboard client does.
 */
import type { Role } from '../../src/db/models/membership.ts';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import type { TestApi, TestResponse } from './api.ts';

export const PASSWORD = 'correct horse battery staple';

export interface DashboardAuth { cookie: string; csrf: string; token: string }

export interface DashRequest {
  auth?: DashboardAuth;
  /** Send the session cookie but no X-CSRF-Token. */
  noCsrf?: boolean;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

let counter = 0;

/** Calls `/dashboard/api{path}` on the test API. */
export async function dash(api: TestApi, method: string, path: string, o: DashRequest = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.auth) {
    headers.cookie ??= o.auth.cookie;
    if (!o.noCsrf && method !== 'GET') headers['x-csrf-token'] ??= o.auth.csrf;
  }
  let body: string | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.body !== undefined) { body = JSON.stringify(o.body); headers['content-type'] ??= 'application/json'; }
  const res = await fetch(`${new URL(api.url).origin}/dashboard/api${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The `folio_session` token a response set (undefined when it set none). */
export function sessionTokenOf(res: TestResponse): string | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
  return line ? line.slice('folio_session='.length).split(';')[0] : undefined;
}

/** Creates a user with `role` in `orgId` (password {@link PASSWORD} unless given). */
export async function addUser(api: TestApi, orgId: string, role: Role = 'owner', email = `user-${process.pid}-${++counter}@example.com`, password = PASSWORD): Promise<{ userId: string; email: string }> {
  const user = await api.cp.m.User.create({ email, name: `User ${counter}`, password_hash: await hashPassword(password), created_at: api.clock.now });
  await api.cp.m.Membership.create({ org_id: orgId, user_id: user._id, role, created_at: api.clock.now });
  return { userId: user._id, email };
}

/** Signs in over HTTP; throws unless it answers 200. */
export async function signIn(api: TestApi, email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<DashboardAuth> {
  const res = await dash(api, 'POST', '/auth/sign-in', { body: { email, password }, headers });
  const token = sessionTokenOf(res);
  if (res.status !== 200 || !token) throw new Error(`sign-in: ${res.status} ${res.text}`);
  return { token, cookie: `folio_session=${token}`, csrf: res.body.csrf_token };
}

/** An organization on `plan` with a signed-in user of `role`. */
export async function dashTenant(api: TestApi, plan: Parameters<TestApi['org']>[0] = 'free', role: Role = 'owner') {
  const org = await api.org(plan);
  const user = await addUser(api, org.id, role);
  return { orgId: org.id, ...user, auth: await signIn(api, user.email) };
}

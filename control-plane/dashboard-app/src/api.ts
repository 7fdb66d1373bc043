/**
 * The dashboard's only way to the server: JSON calls to `/dashboard/api` with the session cookie
 * and, on state-changing calls, the session's CSRF token. Errors keep the server's
 * `{ error, message }` body (and `upgrade_url` on 402s) so pages can show them as they are.
 */

export const API_BASE = '/dashboard/api';

/** An error answer of the dashboard API. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, message: string, body: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }

  /** The upgrade link a 402 carries, if any. */
  get upgradeUrl(): string | undefined {
    return typeof this.body.upgrade_url === 'string' ? this.body.upgrade_url : undefined;
  }
}

let csrfToken = '';
const expiredListeners = new Set<() => void>();

/** Sets the token sent as `X-CSRF-Token` (from `GET /session`). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when a call answers 401 after sign-in (the session expired or was signed out elsewhere). */
export function onSessionExpired(fn: () => void): () => void {
  expiredListeners.add(fn);
  return () => expiredListeners.delete(fn);
}

/**
 * One JSON call to `url` with the session cookie and, when given, `X-CSRF-Token`; resolves to
 * the parsed body (undefined when empty) and throws {@link ApiError} with the server's
 * `{ error, message }` on an error answer, or `network_error` when nothing answered.
 */
export async function requestJson<T = any>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, csrf?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached; check your connection and try again.');
  }
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    throw new ApiError(res.status, typeof parsed?.error === 'string' ? parsed.error : 'http_error',
      typeof parsed?.message === 'string' ? parsed.message : `The server answered ${res.status}`, parsed ?? {});
  }
  return parsed as T;
}

/** Calls `method path` under the API base; resolves to the parsed JSON body (undefined for 204). */
export async function api<T = any>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  try {
    return await requestJson<T>(method, API_BASE + path, body, csrfToken);
  } catch (err) {
    // Sign-in pages expect 401s; elsewhere a 401 means the session is gone.
    if (err instanceof ApiError && err.status === 401 && !path.startsWith('/auth/')) for (const fn of expiredListeners) fn();
    throw err;
  }
}

/** The items of a list answer, whether it is an array or a `{ data: [...] }` page. */
export function items<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const b = body as { data?: unknown } | undefined;
  return Array.isArray(b?.data) ? (b.data as T[]) : [];
}

/**
 * A reader's session on a site with reader authentication: the cookie
 * `folio_reader=<payload>.<signature>`, where the payload (base64url JSON) holds the project id,
 * the settings' version (`reader_auth.set_at`), the reader's groups and the expiry, and the
 * signature is an HMAC-SHA256 under a server secret of its own. It is valid for one project only,
 * until it expires (8 hours) or the settings change. HttpOnly, SameSite=Lax, Secure over https,
 * Path=/ of the site's host only (no Domain attribute, so no other host shares it).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { Models } from '../../db/models/index.ts';
import { serverSecret } from '../../secrets/server-secret.ts';
import { readCookie } from '../site-password.ts';

export const READER_COOKIE = 'folio_reader';
/** How long a reader stays signed in. */
export const READER_SESSION_TTL_MS = 8 * 3600_000;
/** Groups kept in a session, at most (the cookie must stay under browsers' 4 KB). */
export const MAX_SESSION_GROUPS = 20;
const MAX_GROUP_LENGTH = 100;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What a valid session says. */
export interface ReaderSession { groups: string[]; expires: number }

async function sign(m: Models, payload: string): Promise<string> {
  return createHmac('sha256', await serverSecret(m, 'reader-session-cookie')).update(payload).digest('base64url');
}

/** The groups a claim carries: a list of names, or one name (or several separated by spaces or commas). */
export function groupsFromClaim(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const names = list.filter((g): g is string => typeof g === 'string' && g.length > 0 && g.length <= MAX_GROUP_LENGTH && !CONTROL.test(g));
  return [...new Set(names)].sort().slice(0, MAX_SESSION_GROUPS);
}

/** A `Set-Cookie` value starting a session with `groups` for the project's current settings. */
export async function readerSessionCookie(m: Models, projectId: string, setAt: Date, groups: string[], now: number, secure: boolean): Promise<string> {
  const expires = now + READER_SESSION_TTL_MS;
  const payload = Buffer.from(JSON.stringify({ p: projectId, v: setAt.getTime(), g: groups, e: expires })).toString('base64url');
  const value = `${payload}.${await sign(m, payload)}`;
  return `${READER_COOKIE}=${value}; Path=/; Max-Age=${Math.floor(READER_SESSION_TTL_MS / 1000)}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that ends the session. */
export function clearReaderCookie(secure: boolean): string {
  return `${READER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The request's session for the project's current settings, if it has a valid one. */
export async function readerSessionOf(m: Models, req: http.IncomingMessage, projectId: string, setAt: Date, now: number): Promise<ReaderSession | undefined> {
  const value = readCookie(req.headers.cookie, READER_COOKIE);
  const match = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match) return undefined;
  const expected = Buffer.from(await sign(m, match[1]));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let data: { p?: unknown; v?: unknown; g?: unknown; e?: unknown };
  try {
    data = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (data.p !== projectId || data.v !== setAt.getTime() || typeof data.e !== 'number' || data.e <= now) return undefined;
  return { groups: groupsFromClaim(data.g), expires: data.e };
}

/** Whether the request came over https (directly, or behind a trusted proxy that says so). */
export function isHttps(req: http.IncomingMessage, trustProxy: boolean): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted) || (trustProxy && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() === 'https');
}

/**
 * Site passwords: hashing (scrypt with a random salt, compared in constant time) and the
 * visitor's cookie, `folio_site_auth=<expires>.<signature>`, where the signature is an
 * HMAC-SHA256 (key: a server secret kept in the database) over the project id, the time the
 * password was set and the expiry. A cookie is valid for one project only, until it expires or
 * the password changes.
 */
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Models } from '../db/models/index.ts';
import { serverSecret } from '../secrets/server-secret.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LEN = 32;

export const SITE_AUTH_COOKIE = 'folio_site_auth';
/** How long a visitor stays signed in to a protected site. */
export const SITE_AUTH_TTL_MS = 7 * 24 * 3600_000;

/** `scrypt$<salt>$<hash>` of `password`. */
export async function hashSitePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LEN);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether `password` matches `stored` (constant-time comparison). */
export async function verifySitePassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

async function sign(m: Models, projectId: string, setAt: Date, expires: number): Promise<string> {
  const key = await serverSecret(m, 'site-password-cookie');
  return createHmac('sha256', key).update(`${projectId}\n${setAt.getTime()}\n${expires}`).digest('base64url');
}

/** A cookie value that lets a visitor into the project's site until `now + SITE_AUTH_TTL_MS`. */
export async function siteAuthCookie(m: Models, projectId: string, setAt: Date, now: number): Promise<{ value: string; maxAgeSeconds: number }> {
  const expires = now + SITE_AUTH_TTL_MS;
  return { value: `${expires}.${await sign(m, projectId, setAt, expires)}`, maxAgeSeconds: Math.floor(SITE_AUTH_TTL_MS / 1000) };
}

/** Whether `value` is a valid, unexpired cookie of the project's current password. */
export async function checkSiteAuthCookie(m: Models, projectId: string, setAt: Date, value: string | undefined, now: number): Promise<boolean> {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires <= now) return false;
  const expected = Buffer.from(await sign(m, projectId, setAt, expires));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

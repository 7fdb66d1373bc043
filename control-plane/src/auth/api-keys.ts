/**
 * API keys: `svc_<id>_<secret>`. The id is public and indexes the record; only a SHA-256 hash of
 * the secret is stored (the secret has 190 bits of entropy, so a fast hash is sound and keeps
 * authentication cheap). Keys are minted in the dashboard (or by operators with `npm run keys`),
 * never through the public API.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Models } from '../db/models/index.ts';
import { AppError, unauthorized } from '../errors.ts';
import { isScope, SCOPES, type Scope } from './scopes.ts';

export const KEY_PREFIX = 'svc';
const KEY_PATTERN = /^svc_([a-z0-9]{16})_([A-Za-z0-9]{32})$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomString(length: number, alphabet: string): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i];
    if (b < 256 - (256 % alphabet.length)) out += alphabet[b % alphabet.length];
  }
  return out.length === length ? out : randomString(length, alphabet);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Splits a presented key into id and secret; undefined when it is not shaped like a key. */
export function parseKey(value: string): { id: string; secret: string } | undefined {
  const m = KEY_PATTERN.exec(value);
  return m ? { id: m[1], secret: m[2] } : undefined;
}

export interface CreateKeyOptions {
  orgId: string;
  name?: string;
  /** Omitted or empty → full access. */
  scopes?: string[];
  expiresAt?: Date;
  /** Creation time (default now; the dashboard passes its clock). */
  createdAt?: Date;
}

/** Mints a key; returns the full value, shown once. */
export async function createApiKey(m: Models, opts: CreateKeyOptions): Promise<{ key: string; id: string }> {
  const scopes = opts.scopes?.length ? opts.scopes : null;
  for (const s of scopes ?? []) {
    if (!isScope(s)) throw new AppError(400, 'invalid_request', `scopes: Unexpected "${s}"; expected one of ${SCOPES.join(', ')}`);
  }
  const id = randomString(16, 'abcdefghijklmnopqrstuvwxyz0123456789');
  const secret = randomString(32, ALPHABET);
  await m.ApiKey.create({ _id: id, org_id: opts.orgId, name: opts.name ?? '', secret_hash: hashSecret(secret), scopes, expires_at: opts.expiresAt ?? null, created_at: opts.createdAt ?? new Date() });
  return { key: `${KEY_PREFIX}_${id}_${secret}`, id };
}

export interface AuthenticatedKey {
  id: string;
  orgId: string;
  scopes: Scope[] | null;
}

/**
 * Key records read in the last KEY_CACHE_MS, per database: authentication is on every request,
 * and a key changes only when it is revoked. Expiry is still compared on every call; a revoked
 * key may answer for up to KEY_CACHE_MS more (a revocation made through the same process drops
 * it at once).
 */
export const KEY_CACHE_MS = 2_000;
type KeyRecord = { _id: string; org_id: string; secret_hash: string; scopes?: string[] | null; expires_at?: Date | null; last_used_at?: Date | null };

/** `last_used_at` is written at most this often per key: authentication stays a read. */
export const LAST_USED_EVERY_MS = 60_000;
const keyCache = new WeakMap<Models, Map<string, { record: KeyRecord | null; at: number }>>();

async function findKey(m: Models, id: string): Promise<KeyRecord | null> {
  let cache = keyCache.get(m);
  if (!cache) keyCache.set(m, (cache = new Map()));
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < KEY_CACHE_MS) return hit.record;
  const record = (await m.ApiKey.findById(id).lean()) as KeyRecord | null;
  if (cache.size > 10_000) cache.clear();
  if (record) cache.set(id, { record, at: Date.now() });
  return record;
}

/** Forgets a cached key (after revoking it in this process). */
export function forgetKey(m: Models, id: string): void {
  keyCache.get(m)?.delete(id);
}

/**
 * Resolves an `Authorization` header value to a key, or throws 401 (missing, malformed,
 * unknown or expired). Expiry is compared with `now` on every call: a key stops working the
 * moment it passes.
 */
export async function authenticate(m: Models, header: string | undefined, now: Date): Promise<AuthenticatedKey> {
  if (!header) throw unauthorized('Missing Authorization header; expected "Bearer <API key>"');
  const bearer = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!bearer) throw unauthorized('Malformed Authorization header; expected "Bearer <API key>"');
  const parsed = parseKey(bearer[1]);
  if (!parsed) throw unauthorized('Malformed API key; expected svc_<id>_<secret>');
  const record = await findKey(m, parsed.id);
  const presented = Buffer.from(hashSecret(parsed.secret), 'hex');
  if (!record || !timingSafeEqual(presented, Buffer.from(record.secret_hash, 'hex'))) {
    throw unauthorized('Invalid API key');
  }
  if (record.expires_at && record.expires_at.getTime() <= now.getTime()) {
    throw unauthorized('API key expired');
  }
  if (!record.last_used_at || now.getTime() - record.last_used_at.getTime() >= LAST_USED_EVERY_MS) {
    record.last_used_at = now;
    // Not awaited: a lost write only makes "last used" a minute older, and must not fail the request.
    m.ApiKey.updateOne({ _id: record._id }, { $set: { last_used_at: now } }).catch(() => {});
  }
  return { id: record._id, orgId: record.org_id, scopes: (record.scopes as Scope[] | null) ?? null };
}

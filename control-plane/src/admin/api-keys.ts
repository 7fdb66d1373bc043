/**
 * API key administration, shared by the dashboard (Settings, API keys) and `npm run keys`
 * (operators). Keys are never minted through the public API.
 */
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { forgetKey, KEY_PREFIX } from '../auth/api-keys.ts';
import { isScope, SCOPES } from '../auth/scopes.ts';

export interface KeySummary {
  id: string;
  name: string;
  /** The public start of the key (`svc_<id>`), to recognise it; the secret is never shown again. */
  prefix: string;
  scopes: string[] | 'all';
  expires_at: string | null;
  /** True once `expires_at` has passed: the key no longer authenticates and cannot be renewed. */
  expired: boolean;
  created_at: string;
  last_used_at: string | null;
}

type KeyRecord = { _id: string; name?: string | null; scopes?: string[] | null; expires_at?: Date | null; created_at?: Date | null; last_used_at?: Date | null };

/** The keys of one organization, oldest first. */
export async function listKeys(m: Models, orgId: string, now = new Date()): Promise<KeySummary[]> {
  const keys = await m.ApiKey.find({ org_id: orgId }).sort({ created_at: 1, _id: 1 }).lean();
  return keys.map((k) => summary(k, now));
}

/** Every organization's keys, each with its organization's handle, by handle then age. */
export async function listAllKeys(m: Models, now = new Date()): Promise<Array<KeySummary & { org: string }>> {
  const [orgs, keys] = await Promise.all([m.Organization.find({}, { handle: 1 }).lean(), m.ApiKey.find({}).sort({ created_at: 1 }).lean()]);
  const handles = new Map(orgs.map((o) => [o._id, o.handle]));
  return keys
    .map((k) => ({ org: handles.get(k.org_id) ?? k.org_id, ...summary(k, now) }))
    .sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : 0));
}

/** A stored key as listed (no hash). */
export function summary(k: KeyRecord, now = new Date()): KeySummary {
  return {
    id: k._id, name: k.name ?? '', prefix: `${KEY_PREFIX}_${k._id}`, scopes: k.scopes?.length ? k.scopes : 'all',
    expires_at: k.expires_at ? k.expires_at.toISOString() : null,
    expired: Boolean(k.expires_at && k.expires_at.getTime() <= now.getTime()),
    created_at: k.created_at!.toISOString(),
    last_used_at: k.last_used_at ? k.last_used_at.toISOString() : null,
  };
}

/**
 * Deletes a key (revoked and expired keys alike); it stops authenticating at once. With
 * `orgId`, only that organization's key (another organization's answers as missing).
 */
export async function revokeKey(m: Models, id: string, orgId?: string): Promise<void> {
  const { deletedCount } = await m.ApiKey.deleteOne(orgId ? { _id: id, org_id: orgId } : { _id: id });
  forgetKey(m, id);
  if (!deletedCount) throw new AppError(404, 'not_found', `API key "${id}" not found`);
}

/**
 * Renames a key or changes its scopes (omitted: unchanged; `'all'` or empty: every
 * scope). An expired key is `409 key_expired`: it is never renewed or edited, only deleted.
 */
export async function updateKey(m: Models, orgId: string, id: string, change: { name?: string; scopes?: string[] | 'all' }, now: Date): Promise<KeySummary> {
  const key = await m.ApiKey.findOne({ _id: id, org_id: orgId }).lean();
  if (!key) throw new AppError(404, 'not_found', `API key "${id}" not found`);
  if (key.expires_at && key.expires_at.getTime() <= now.getTime()) throw new AppError(409, 'key_expired', 'This API key has expired; expired keys cannot be edited or renewed, create a new one');
  const set: Record<string, unknown> = {};
  if (change.name !== undefined) set.name = change.name;
  if (change.scopes !== undefined) {
    for (const s of change.scopes === 'all' ? [] : change.scopes) {
      if (!isScope(s)) throw new AppError(400, 'invalid_request', `scopes: Unexpected "${s}"; expected one of ${SCOPES.join(', ')}`);
    }
    set.scopes = change.scopes === 'all' || change.scopes.length === 0 ? null : [...new Set(change.scopes)];
  }
  const updated = await m.ApiKey.findOneAndUpdate({ _id: id, org_id: orgId }, { $set: set }, { returnDocument: 'after' }).lean();
  if (!updated) throw new AppError(404, 'not_found', `API key "${id}" not found`);
  forgetKey(m, id);
  return summary(updated, now);
}

/** API key administration for `npm run keys` (keys are never minted through the API). */
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { forgetKey } from '../auth/api-keys.ts';

export interface KeySummary { id: string; name: string; scopes: string[] | 'all'; expires_at: string | null; created_at: string }

/** The keys of one organization, oldest first. */
export async function listKeys(m: Models, orgId: string): Promise<KeySummary[]> {
  const keys = await m.ApiKey.find({ org_id: orgId }).sort({ created_at: 1 }).lean();
  return keys.map(summary);
}

/** Every organization's keys, each with its organization's handle, by handle then age. */
export async function listAllKeys(m: Models): Promise<Array<KeySummary & { org: string }>> {
  const [orgs, keys] = await Promise.all([m.Organization.find({}, { handle: 1 }).lean(), m.ApiKey.find({}).sort({ created_at: 1 }).lean()]);
  const handles = new Map(orgs.map((o) => [o._id, o.handle]));
  return keys
    .map((k) => ({ org: handles.get(k.org_id) ?? k.org_id, ...summary(k) }))
    .sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : 0));
}

function summary(k: { _id: string; name?: string | null; scopes?: string[] | null; expires_at?: Date | null; created_at?: Date | null }): KeySummary {
  return {
    id: k._id, name: k.name ?? '', scopes: k.scopes?.length ? k.scopes : 'all',
    expires_at: k.expires_at ? k.expires_at.toISOString() : null, created_at: k.created_at!.toISOString(),
  };
}

/** Deletes a key (revoked and expired keys alike); it stops authenticating at once. */
export async function revokeKey(m: Models, id: string): Promise<void> {
  const { deletedCount } = await m.ApiKey.deleteOne({ _id: id });
  forgetKey(m, id);
  if (!deletedCount) throw new AppError(404, 'not_found', `API key "${id}" not found`);
}

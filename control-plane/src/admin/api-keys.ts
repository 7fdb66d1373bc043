/** API key administration for `npm run keys` (keys are never minted through the API). */
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { forgetKey } from '../auth/api-keys.ts';

export interface KeySummary { id: string; name: string; scopes: string[] | 'all'; expires_at: string | null; created_at: string }

export async function listKeys(m: Models, orgId: string): Promise<KeySummary[]> {
  const keys = await m.ApiKey.find({ org_id: orgId }).sort({ created_at: 1 }).lean();
  return keys.map((k) => ({
    id: k._id, name: k.name ?? '', scopes: k.scopes?.length ? k.scopes : 'all',
    expires_at: k.expires_at ? k.expires_at.toISOString() : null, created_at: k.created_at!.toISOString(),
  }));
}

/** Deletes a key (revoked and expired keys alike); it stops authenticating at once. */
export async function revokeKey(m: Models, id: string): Promise<void> {
  const { deletedCount } = await m.ApiKey.deleteOne({ _id: id });
  forgetKey(m, id);
  if (!deletedCount) throw new AppError(404, 'not_found', `API key "${id}" not found`);
}

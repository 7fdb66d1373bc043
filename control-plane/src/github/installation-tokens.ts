/**
 * Installation access tokens: short-lived (GitHub: one hour) tokens of one installation of the
 * App, minted here restricted to one repository and to reading its contents, so a build that
 * leaks its token leaks read access to its own repository only. Minted tokens are kept per
 * (installation, repository) until five minutes before they expire: a build always gets one
 * that outlives a clone.
 */
import { appJwt, githubCall, type GithubApp } from './github-app.ts';

/**
 * What a token is restricted to: repository ids (contents, read), names (`name`, without the
 * owner) when the id is not known yet (contents, read), or `metadata` (every repository of the
 * installation, metadata only: counting them).
 */
export type TokenScope = { repositoryIds: number[] } | { repositories: string[] } | 'metadata';

/** A minted token, or GitHub's refusal (the installation is gone or suspended, the repository is not covered). */
export type MintResult = { token: string; expiresAt: Date } | { refused: number; message: string };

/** Tokens with less than this left are minted anew. */
const REFRESH_BEFORE_MS = 5 * 60_000;

/** Mints a read-only token of `installationId` restricted to `scope` (`POST /app/installations/{id}/access_tokens`). */
export async function mintToken(app: GithubApp, installationId: number, scope: TokenScope): Promise<MintResult> {
  const body = scope === 'metadata' ? { permissions: { metadata: 'read' } }
    : { ...('repositoryIds' in scope ? { repository_ids: scope.repositoryIds } : { repositories: scope.repositories }), permissions: { contents: 'read' } };
  const res = await githubCall('POST', `${app.apiUrl}/app/installations/${installationId}/access_tokens`, {
    auth: `Bearer ${appJwt(app, new Date())}`, body, what: 'a request for an installation token',
  });
  const expiresAt = new Date(typeof res.body?.expires_at === 'string' ? res.body.expires_at : NaN);
  if (res.status === 201 && typeof res.body?.token === 'string' && !Number.isNaN(expiresAt.getTime())) return { token: res.body.token, expiresAt };
  return { refused: res.status, message: typeof res.body?.message === 'string' ? res.body.message.slice(0, 300) : `status ${res.status}` };
}

const caches = new WeakMap<GithubApp | object, Map<string, { token: string; expiresAt: Date }>>();
/** One cache per control plane (keyed by its models object). */
function cacheOf(owner: object) {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, cache = new Map());
  return cache;
}

/**
 * A token that reads repository `repoId` through `installationId`: a cached one with more than
 * five minutes left, or a new one. `owner` keys the cache (the control plane's models).
 */
export async function repoToken(owner: object, app: GithubApp, installationId: number, repoId: number): Promise<MintResult> {
  const cache = cacheOf(owner);
  const key = `${installationId}:${repoId}`;
  const kept = cache.get(key);
  if (kept && kept.expiresAt.getTime() - Date.now() > REFRESH_BEFORE_MS) return kept;
  const minted = await mintToken(app, installationId, { repositoryIds: [repoId] });
  if ('token' in minted) cache.set(key, minted);
  else cache.delete(key);
  return minted;
}

/** Drops kept tokens of an installation (all its repositories, or those of `repoIds`): it was removed or lost them. */
export function forgetTokens(owner: object, installationId: number, repoIds?: number[]): void {
  const cache = cacheOf(owner);
  for (const key of [...cache.keys()]) {
    const [inst, repo] = key.split(':').map(Number);
    if (inst === installationId && (!repoIds || repoIds.includes(repo))) cache.delete(key);
  }
}

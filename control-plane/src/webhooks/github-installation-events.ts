/**
 * What the GitHub App's `installation` and `installation_repositories` deliveries change: an
 * installation deleted on GitHub is unlinked from its organization, a suspended one stops its
 * projects' builds until it is unsuspended, and repositories removed from an installation lose
 * the tokens kept for them. (GitHub revokes the tokens itself; this makes the next build fail at
 * once with a message saying why, instead of at clone time.)
 */
import type { Deps } from '../http/route.ts';
import { forgetTokens } from '../github/installation-tokens.ts';

export type InstallationOutcome = { status: 'handled' | 'ignored'; reason: string };

/** Handles an `installation` delivery. */
export async function handleInstallationEvent(deps: Deps, payload: { action?: unknown; installation?: { id?: unknown } | null }): Promise<InstallationOutcome> {
  const id = payload.installation?.id;
  const action = typeof payload.action === 'string' ? payload.action : '';
  if (!Number.isSafeInteger(id)) return { status: 'ignored', reason: 'installation payload without installation.id' };
  const installationId = id as number;
  const linked = await deps.m.GithubInstallation.exists({ _id: installationId });
  if (!linked) return { status: 'ignored', reason: `installation ${installationId} is not connected to any organization` };
  if (action === 'deleted') {
    await deps.m.GithubInstallation.deleteOne({ _id: installationId });
    forgetTokens(deps.m, installationId);
    return { status: 'handled', reason: `installation ${installationId} was deleted on GitHub and is no longer connected; its projects stop building` };
  }
  if (action === 'suspend' || action === 'unsuspend') {
    await deps.m.GithubInstallation.updateOne({ _id: installationId }, { $set: { suspended_at: action === 'suspend' ? deps.now() : null } });
    forgetTokens(deps.m, installationId);
    return { status: 'handled', reason: action === 'suspend' ? `installation ${installationId} is suspended; its projects stop building` : `installation ${installationId} is no longer suspended` };
  }
  return { status: 'ignored', reason: `installation ${action || 'event'} changes nothing here` };
}

/** Handles an `installation_repositories` delivery (repositories added to or removed from an installation). */
export async function handleInstallationRepositories(deps: Deps, payload: { action?: unknown; installation?: { id?: unknown } | null; repositories_removed?: unknown }): Promise<InstallationOutcome> {
  const id = payload.installation?.id;
  if (!Number.isSafeInteger(id)) return { status: 'ignored', reason: 'installation_repositories payload without installation.id' };
  const removed = (Array.isArray(payload.repositories_removed) ? payload.repositories_removed : [])
    .map((r: any) => r?.id).filter((r): r is number => Number.isSafeInteger(r));
  if (payload.action !== 'removed' || removed.length === 0) return { status: 'ignored', reason: 'no repository was removed from the installation' };
  forgetTokens(deps.m, id as number, removed);
  const affected = await deps.m.Project.countDocuments({ github_installation_id: id as number, github_repo_id: { $in: removed } });
  return { status: 'handled', reason: `${removed.length} repository(ies) removed from installation ${id as number}; ${affected} project(s) connected to them stop building` };
}

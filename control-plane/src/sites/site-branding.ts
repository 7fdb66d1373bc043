/**
 * Whether a project's site shows the "Powered by Folio" badge: yes unless its organization's
 * plan includes `white_labeling` (team and enterprise), read from the one entitlement resolver
 * (a scheduled downgrade applies when it comes due). The answer is kept a few seconds per
 * project, so a plan change shows on a site within `TTL_MS`, without a new build
 * (docs/decisions/107).
 */
import type { Models } from '../db/models/index.ts';
import { hasFeature } from '../entitlements/resolver.ts';

/** How long one answer is kept per project. */
export const BRANDING_TTL_MS = 5_000;

/** Reads whether the project's site is branded (true: show the badge). */
export type SiteBranding = (projectId: string) => Promise<boolean>;

/** The branding reader of the site server and the password gate; `now` is the platform's clock. */
export function siteBranding(m: Models, now: () => Date = () => new Date()): SiteBranding {
  const cache = new Map<string, { branded: boolean; at: number }>();
  return async (projectId) => {
    const hit = cache.get(projectId);
    if (hit && Date.now() - hit.at < BRANDING_TTL_MS) return hit.branded;
    const project = await m.Project.findById(projectId, { org_id: 1 }).lean();
    // A site whose plan cannot be read keeps the badge: never white-labelled by mistake.
    const branded = project ? !await hasFeature(m, project.org_id, 'white_labeling', now()).catch(() => false) : true;
    if (cache.size > 10_000) cache.clear();
    cache.set(projectId, { branded, at: Date.now() });
    return branded;
  };
}

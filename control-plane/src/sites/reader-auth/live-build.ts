/**
 * Whether a site's live build matches its reader sign-in: a build claimed while sign-in was off
 * published every page at the site's public prefix, so once sign-in is turned on, that prefix
 * can be served to nobody until a build per audience is live (decision 117). The live build is
 * the newest `deployed` production deployment, as the claim's `skipIfLive` reads it.
 */
import type { Models } from '../../db/models/index.ts';

/** True when the live production build was made per audience (reader sign-in on at its claim). */
export async function liveBuildIsPerAudience(m: Models, projectId: string): Promise<boolean> {
  const live = await m.Deployment.findOne({ project_id: projectId, status: 'deployed', preview_label: null }, { reader_access: 1 })
    .sort({ finished_at: -1 }).lean();
  return live?.reader_access === true;
}
